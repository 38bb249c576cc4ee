// SPDX-License-Identifier: MIT
/* The Vulkan probe: draws an index buffer headlessly and reads back the pipeline
 * statistics and the per-vertex invocation counters (see gpucache_probe.h).
 *
 * One render pass with a 1x1 colour target; every vertex sits at one point so that
 * triangles rasterize nothing, while a fragment shader reading all the vertex outputs
 * keeps them alive (seeds 001 and 002 vary the output count to see whether the cache
 * shrinks). Pipelines are created lazily per (topology, restart, outputs). */
#include "../internal.h"
#include "gpucache/gpucache_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include "probe_shaders.h" /* generated: probe_vertex_spirv[n], probe_fragment_spirv[n] */
#include "vulkan_internal.h"

int gc_probe_available(void)
{
    return 1;
}

gc_status gc_vk_fail(gc_error* err, VkResult r, const char* what)
{
    gc_status code = (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY) ? GC_ERR_NOMEM
                                                                                            : GC_ERR_UNSUPPORTED;
    return gc_fail(err, code, "vulkan: %s failed (VkResult %d)", what, (int)r);
}

static gc_status create_instance(VkInstance* out, gc_error* err)
{
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gpucache probe",
        .applicationVersion = VK_MAKE_API_VERSION(0, GPUCACHE_VERSION_MAJOR, GPUCACHE_VERSION_MINOR,
                                                  GPUCACHE_VERSION_PATCH),
        .pEngineName = "gpucache",
        .apiVersion = VK_API_VERSION_1_2,
    };
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkResult r = vkCreateInstance(&ci, NULL, out);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
        return gc_fail(err, GC_ERR_UNSUPPORTED,
                       "vulkan: no Vulkan driver found (install mesa-vulkan-drivers for lavapipe)");
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateInstance");
    return GC_OK;
}

static const char* device_type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

static int has_extension(VkPhysicalDevice pd, const char* name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkExtensionProperties* ext = calloc(n, sizeof *ext);
    if (!ext)
        return 0;
    int found = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, ext) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; ++i)
            found = strcmp(ext[i].extensionName, name) == 0;
    free(ext);
    return found;
}

static void describe_device(VkPhysicalDevice pd, gc_probe_device* d)
{
    memset(d, 0, sizeof *d);
    VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
    vkGetPhysicalDeviceProperties2(pd, &props);
    const VkPhysicalDeviceProperties* p = &props.properties;
    snprintf(d->name, sizeof d->name, "%s", p->deviceName);
    if (driver.driverName[0])
        snprintf(d->driver, sizeof d->driver, "%.120s %.120s", driver.driverName, driver.driverInfo);
    else
        snprintf(d->driver, sizeof d->driver, "driver 0x%08x", p->driverVersion);
    snprintf(d->type, sizeof d->type, "%s", device_type_name(p->deviceType));
    d->api_version = p->apiVersion;
    d->driver_version = p->driverVersion;
    d->vendor_id = p->vendorID;
    d->device_id = p->deviceID;
    uint32_t comps = p->limits.maxVertexOutputComponents;
    if (p->limits.maxFragmentInputComponents < comps)
        comps = p->limits.maxFragmentInputComponents;
    uint32_t outputs = comps / 4;
    d->max_outputs = outputs > GC_PROBE_MAX_OUTPUTS ? GC_PROBE_MAX_OUTPUTS : outputs;

    VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT lr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    int lr_ext = has_extension(pd, VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME);
    if (lr_ext)
        f.pNext = &lr;
    vkGetPhysicalDeviceFeatures2(pd, &f);
    d->list_restart = lr_ext && lr.primitiveTopologyListRestart;
    d->usable = f.features.pipelineStatisticsQuery && f.features.vertexPipelineStoresAndAtomics && d->max_outputs >= 1;
}

gc_status gc_probe_list(gc_probe_device* out, uint32_t capacity, uint32_t* count, gc_error* err)
{
    VkInstance instance;
    gc_status s = create_instance(&instance, err);
    if (s)
        return s;
    uint32_t n = 0;
    VkResult r = vkEnumeratePhysicalDevices(instance, &n, NULL);
    VkPhysicalDevice* pds = n ? calloc(n, sizeof *pds) : NULL;
    if (r == VK_SUCCESS && n && !pds)
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
    if (r == VK_SUCCESS && n)
        r = vkEnumeratePhysicalDevices(instance, &n, pds);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        free(pds);
        vkDestroyInstance(instance, NULL);
        return gc_vk_fail(err, r, "vkEnumeratePhysicalDevices");
    }
    for (uint32_t i = 0; i < n && i < capacity; ++i)
        describe_device(pds[i], &out[i]);
    *count = n;
    free(pds);
    vkDestroyInstance(instance, NULL);
    if (n == 0)
        return gc_fail(err, GC_ERR_UNSUPPORTED,
                       "vulkan: no Vulkan device found (install mesa-vulkan-drivers for lavapipe)");
    return GC_OK;
}

int gc_vk_memory_type(const gc_probe* p, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < p->memory.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (p->memory.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

void gc_vk_buffer_destroy(gc_probe* p, probe_buffer* b)
{
    if (b->buffer)
        vkDestroyBuffer(p->device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(p->device, b->memory, NULL); /* unmaps */
    memset(b, 0, sizeof *b);
}

/* Makes `b` a host-visible, coherent buffer of at least `size` bytes. */
gc_status gc_vk_buffer_ensure(gc_probe* p, probe_buffer* b, VkDeviceSize size, VkBufferUsageFlags usage,
                               gc_error* err)
{
    if (b->buffer && b->size >= size)
        return GC_OK;
    gc_vk_buffer_destroy(p, b);
    VkDeviceSize rounded = 4096;
    while (rounded < size)
        rounded *= 2;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = rounded, .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = vkCreateBuffer(p->device, &bi, NULL, &b->buffer);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(p->device, b->buffer, &req);
    int type = gc_vk_memory_type(p, req.memoryTypeBits,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (type < 0) {
        gc_vk_buffer_destroy(p, b);
        return gc_fail(err, GC_ERR_UNSUPPORTED, "vulkan: no host-visible coherent memory for a buffer");
    }
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                               .memoryTypeIndex = (uint32_t)type};
    r = vkAllocateMemory(p->device, &ai, NULL, &b->memory);
    if (r == VK_SUCCESS)
        r = vkBindBufferMemory(p->device, b->buffer, b->memory, 0);
    if (r == VK_SUCCESS)
        r = vkMapMemory(p->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped);
    if (r != VK_SUCCESS) {
        gc_vk_buffer_destroy(p, b);
        return gc_vk_fail(err, r, "allocating a buffer");
    }
    b->size = rounded;
    return GC_OK;
}

gc_status gc_vk_image_create(gc_probe* p, VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage,
                             VkImageAspectFlags aspect, VkImage* image, VkDeviceMemory* memory, VkImageView* view,
                             const char* what, gc_error* err)
{
    VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
                            .format = format, .extent = {width, height, 1}, .mipLevels = 1, .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL, .usage = usage,
                            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkResult r = vkCreateImage(p->device, &ii, NULL, image);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(p->device, *image, &req);
    int type = gc_vk_memory_type(p, req.memoryTypeBits, 0);
    if (type < 0)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "vulkan: no memory type for %s", what);
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                               .memoryTypeIndex = (uint32_t)type};
    r = vkAllocateMemory(p->device, &ai, NULL, memory);
    if (r == VK_SUCCESS)
        r = vkBindImageMemory(p->device, *image, *memory, 0);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "allocating an image");
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = *image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = format,
                                .subresourceRange = {aspect, 0, 1, 0, 1}};
    r = vkCreateImageView(p->device, &vi, NULL, view);
    return r == VK_SUCCESS ? GC_OK : gc_vk_fail(err, r, "vkCreateImageView");
}

static gc_status create_target(gc_probe* p, gc_error* err)
{
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkAttachmentDescription color = {
        .format = format, .samples = VK_SAMPLE_COUNT_1_BIT, .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE, .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference ref = {.attachment = 0, .layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1,
                                .pColorAttachments = &ref};
    VkRenderPassCreateInfo rp = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, .attachmentCount = 1,
                                 .pAttachments = &color, .subpassCount = 1, .pSubpasses = &sub};
    VkResult r = vkCreateRenderPass(p->device, &rp, NULL, &p->render_pass);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateRenderPass");

    gc_status s = gc_vk_image_create(p, format, 1, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT,
                                     &p->image, &p->image_memory, &p->image_view, "the colour target", err);
    if (s)
        return s;
    VkFramebufferCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, .renderPass = p->render_pass,
                                  .attachmentCount = 1, .pAttachments = &p->image_view, .width = 1, .height = 1,
                                  .layers = 1};
    r = vkCreateFramebuffer(p->device, &fi, NULL, &p->framebuffer);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateFramebuffer");
    return GC_OK;
}

static gc_status create_layouts(gc_probe* p, gc_error* err)
{
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_VERTEX_BIT};
    VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 1, .pBindings = &b};
    VkResult r = vkCreateDescriptorSetLayout(p->device, &li, NULL, &p->set_layout);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                     .pSetLayouts = &p->set_layout};
    r = vkCreatePipelineLayout(p->device, &pl, NULL, &p->pipeline_layout);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreatePipelineLayout");
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                     .poolSizeCount = 1, .pPoolSizes = &size};
    r = vkCreateDescriptorPool(p->device, &pi, NULL, &p->descriptor_pool);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = p->descriptor_pool, .descriptorSetCount = 1,
                                      .pSetLayouts = &p->set_layout};
    r = vkAllocateDescriptorSets(p->device, &ai, &p->descriptor_set);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkAllocateDescriptorSets");
    return GC_OK;
}

gc_status gc_probe_open(uint32_t index, gc_probe** out, gc_error* err)
{
    *out = NULL;
    gc_probe* p = calloc(1, sizeof *p);
    if (!p)
        return gc_fail(err, GC_ERR_NOMEM, "vulkan: out of memory for the probe (%zu bytes)", sizeof *p);
    gc_status s = create_instance(&p->instance, err);
    if (s) {
        free(p);
        return s;
    }
    *out = p; /* from here on gc_probe_close cleans up */
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(p->instance, &n, NULL);
    if (n == 0)
        return gc_fail(err, GC_ERR_UNSUPPORTED,
                       "vulkan: no Vulkan device found (install mesa-vulkan-drivers for lavapipe)");
    if (index >= n)
        return gc_fail(err, GC_ERR_USAGE, "vulkan: no device %u (there are %u; see probe --list)", index, n);
    VkPhysicalDevice* pds = calloc(n, sizeof *pds);
    if (!pds)
        return gc_fail(err, GC_ERR_NOMEM, "vulkan: out of memory for a list of %u devices", n);
    vkEnumeratePhysicalDevices(p->instance, &n, pds);
    p->physical = pds[index];
    free(pds);
    describe_device(p->physical, &p->info);
    if (!p->info.usable)
        return gc_fail(err, GC_ERR_UNSUPPORTED,
                       "vulkan: device %u (%s) lacks pipeline statistics queries or vertex-shader atomics", index,
                       p->info.name);

    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(p->physical, &props);
    p->max_storage_range = props.limits.maxStorageBufferRange;
    vkGetPhysicalDeviceMemoryProperties(p->physical, &p->memory);

    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(p->physical, &qn, NULL);
    VkQueueFamilyProperties qf[16];
    if (qn > 16)
        qn = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(p->physical, &qn, qf);
    p->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < qn && p->queue_family == UINT32_MAX; ++i)
        if (qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)
            p->queue_family = i;
    if (p->queue_family == UINT32_MAX)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "vulkan: device %s has no graphics queue", p->info.name);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = p->queue_family, .queueCount = 1,
                                  .pQueuePriorities = &priority};
    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(p->physical, &supported);
    p->fragment_atomics = supported.fragmentStoresAndAtomics == VK_TRUE;
    VkPhysicalDeviceFeatures features = {.pipelineStatisticsQuery = VK_TRUE,
                                         .vertexPipelineStoresAndAtomics = VK_TRUE,
                                         .fragmentStoresAndAtomics = supported.fragmentStoresAndAtomics};
    VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT lr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT,
        .primitiveTopologyListRestart = VK_TRUE};
    const char* ext = VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME;
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi, .pEnabledFeatures = &features};
    if (p->info.list_restart) {
        di.pNext = &lr;
        di.enabledExtensionCount = 1;
        di.ppEnabledExtensionNames = &ext;
    }
    VkResult r = vkCreateDevice(p->physical, &di, NULL, &p->device);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateDevice");
    vkGetDeviceQueue(p->device, p->queue_family, 0, &p->queue);

    VkCommandPoolCreateInfo cp = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = p->queue_family};
    if ((r = vkCreateCommandPool(p->device, &cp, NULL, &p->command_pool)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateCommandPool");
    VkCommandBufferAllocateInfo ca = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = p->command_pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    if ((r = vkAllocateCommandBuffers(p->device, &ca, &p->command_buffer)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkAllocateCommandBuffers");
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((r = vkCreateFence(p->device, &fi, NULL, &p->fence)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateFence");
    VkQueryPoolCreateInfo qp = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS, .queryCount = 1,
                                .pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
                                                      VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
                                                      VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT};
    if ((r = vkCreateQueryPool(p->device, &qp, NULL, &p->query_pool)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateQueryPool");
    if ((s = create_target(p, err)) || (s = create_layouts(p, err)))
        return s;
    return GC_OK;
}

void gc_probe_close(gc_probe* p)
{
    if (!p)
        return;
    if (p->device) {
        vkDeviceWaitIdle(p->device);
        for (size_t i = 0; i < p->pipeline_count; ++i)
            vkDestroyPipeline(p->device, p->pipelines[i].pipeline, NULL);
        for (uint32_t i = 0; i <= GC_PROBE_MAX_OUTPUTS; ++i) {
            if (p->vertex_modules[i])
                vkDestroyShaderModule(p->device, p->vertex_modules[i], NULL);
            if (p->fragment_modules[i])
                vkDestroyShaderModule(p->device, p->fragment_modules[i], NULL);
        }
        gc_vk_buffer_destroy(p, &p->indices);
        gc_vk_buffer_destroy(p, &p->counters);
        if (p->descriptor_pool)
            vkDestroyDescriptorPool(p->device, p->descriptor_pool, NULL);
        if (p->pipeline_layout)
            vkDestroyPipelineLayout(p->device, p->pipeline_layout, NULL);
        if (p->set_layout)
            vkDestroyDescriptorSetLayout(p->device, p->set_layout, NULL);
        if (p->framebuffer)
            vkDestroyFramebuffer(p->device, p->framebuffer, NULL);
        if (p->image_view)
            vkDestroyImageView(p->device, p->image_view, NULL);
        if (p->image)
            vkDestroyImage(p->device, p->image, NULL);
        if (p->image_memory)
            vkFreeMemory(p->device, p->image_memory, NULL);
        if (p->render_pass)
            vkDestroyRenderPass(p->device, p->render_pass, NULL);
        if (p->query_pool)
            vkDestroyQueryPool(p->device, p->query_pool, NULL);
        if (p->fence)
            vkDestroyFence(p->device, p->fence, NULL);
        if (p->command_pool)
            vkDestroyCommandPool(p->device, p->command_pool, NULL);
        vkDestroyDevice(p->device, NULL);
    }
    if (p->instance)
        vkDestroyInstance(p->instance, NULL);
    free(p);
}

const gc_probe_device* gc_probe_info(const gc_probe* p)
{
    return &p->info;
}

gc_status gc_vk_shader_module(gc_probe* p, const uint32_t* code, size_t bytes, VkShaderModule* out, gc_error* err)
{
    if (*out)
        return GC_OK;
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = bytes,
                                   .pCode = code};
    VkResult r = vkCreateShaderModule(p->device, &ci, NULL, out);
    return r == VK_SUCCESS ? GC_OK : gc_vk_fail(err, r, "vkCreateShaderModule");
}

static gc_status get_pipeline(gc_probe* p, VkPrimitiveTopology topology, VkBool32 restart, uint32_t outputs,
                              VkPipeline* out, gc_error* err)
{
    for (size_t i = 0; i < p->pipeline_count; ++i) {
        pipeline_slot* ps = &p->pipelines[i];
        if (ps->topology == topology && ps->restart == restart && ps->outputs == outputs) {
            *out = ps->pipeline;
            return GC_OK;
        }
    }
    if (p->pipeline_count == PIPELINE_CACHE_SLOTS) { /* rare: start over */
        vkDeviceWaitIdle(p->device);
        for (size_t i = 0; i < p->pipeline_count; ++i)
            vkDestroyPipeline(p->device, p->pipelines[i].pipeline, NULL);
        p->pipeline_count = 0;
    }
    gc_status s = gc_vk_shader_module(p, probe_vertex_spirv[outputs], probe_vertex_spirv_bytes[outputs],
                                &p->vertex_modules[outputs], err);
    if (!s)
        s = gc_vk_shader_module(p, probe_fragment_spirv[outputs], probe_fragment_spirv_bytes[outputs],
                          &p->fragment_modules[outputs], err);
    if (s)
        return s;
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = p->vertex_modules[outputs], .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = p->fragment_modules[outputs], .pName = "main"},
    };
    VkPipelineVertexInputStateCreateInfo vin = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, .topology = topology,
        .primitiveRestartEnable = restart};
    VkViewport viewport = {0, 0, 1, 1, 0, 1};
    VkRect2D scissor = {{0, 0}, {1, 1}};
    VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                            .viewportCount = 1, .pViewports = &viewport, .scissorCount = 1,
                                            .pScissors = &scissor};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE, .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                               .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineColorBlendAttachmentState blend = {.colorWriteMask = 0xF};
    VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                              .attachmentCount = 1, .pAttachments = &blend};
    VkGraphicsPipelineCreateInfo gi = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .stageCount = 2, .pStages = stages,
        .pVertexInputState = &vin, .pInputAssemblyState = &ia, .pViewportState = &vp, .pRasterizationState = &rs,
        .pMultisampleState = &ms, .pColorBlendState = &cb, .layout = p->pipeline_layout,
        .renderPass = p->render_pass, .subpass = 0};
    VkPipeline pipe;
    VkResult r = vkCreateGraphicsPipelines(p->device, VK_NULL_HANDLE, 1, &gi, NULL, &pipe);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateGraphicsPipelines");
    p->pipelines[p->pipeline_count++] = (pipeline_slot){topology, restart, outputs, pipe};
    *out = pipe;
    return GC_OK;
}

static gc_status vulkan_topology(gc_topology t, VkPrimitiveTopology* out, gc_error* err)
{
    switch (t) {
    case GC_POINT_LIST: *out = VK_PRIMITIVE_TOPOLOGY_POINT_LIST; return GC_OK;
    case GC_LINE_LIST: *out = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; return GC_OK;
    case GC_LINE_STRIP: *out = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; return GC_OK;
    case GC_TRIANGLE_LIST: *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST; return GC_OK;
    case GC_TRIANGLE_STRIP: *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP; return GC_OK;
    case GC_TRIANGLE_FAN: *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN; return GC_OK;
    default:
        return gc_fail(err, GC_ERR_USAGE, "vulkan has no %s topology; the probe draws point, line and "
                                          "triangle lists, line and triangle strips, and triangle fans",
                       gc_topology_name(t));
    }
}

static int is_list(gc_topology t)
{
    return t == GC_POINT_LIST || t == GC_LINE_LIST || t == GC_TRIANGLE_LIST;
}

gc_status gc_vk_submit(gc_probe* p, gc_error* err)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                       .pCommandBuffers = &p->command_buffer};
    VkResult r = vkResetFences(p->device, 1, &p->fence);
    if (r == VK_SUCCESS)
        r = vkQueueSubmit(p->queue, 1, &si, p->fence);
    if (r == VK_SUCCESS)
        r = vkWaitForFences(p->device, 1, &p->fence, VK_TRUE, UINT64_MAX);
    return r == VK_SUCCESS ? GC_OK : gc_vk_fail(err, r, "submitting the draw");
}

gc_status gc_probe_draw(gc_probe* p, const gc_draw* draw, uint32_t outputs, uint32_t* per_vertex,
                        size_t per_vertex_len, gc_probe_result* out, gc_error* err)
{
    memset(out, 0, sizeof *out);
    if (outputs < 1 || outputs > p->info.max_outputs)
        return gc_fail(err, GC_ERR_USAGE, "--outputs %u: this device takes 1 to %u vec4 outputs", outputs,
                       p->info.max_outputs);
    VkPrimitiveTopology topology;
    gc_status s = vulkan_topology(draw->topology, &topology, err);
    if (s)
        return s;
    if (draw->restart_enabled && is_list(draw->topology) && !p->info.list_restart)
        return gc_fail(err, GC_ERR_UNSUPPORTED, "vulkan: %s does not allow primitive restart with %s "
                                                "(no VK_EXT_primitive_topology_list_restart)",
                       p->info.name, gc_topology_name(draw->topology));
    if (draw->index_count > UINT32_MAX)
        return gc_fail(err, GC_ERR_LIMIT, "vulkan: %zu indices is more than one draw takes", draw->index_count);

    /* The counters cover every index value the draw uses. */
    uint64_t max_value = 0;
    for (size_t i = 0; i < draw->index_count; ++i) {
        uint32_t v = draw->indices[i];
        if (draw->restart_enabled && v == draw->restart_value)
            continue;
        if (v == UINT32_MAX)
            return gc_fail(err, GC_ERR_DATA, "index %zu: value 0xFFFFFFFF is Vulkan's restart value and "
                                             "cannot be drawn as a vertex", i);
        if (v > max_value)
            max_value = v;
    }
    if (max_value >= GC_PROBE_MAX_INDEX_VALUE)
        return gc_fail(err, GC_ERR_LIMIT,
                       "vulkan: index value %llu: the probe counts invocations per index value, up to %u (renumber "
                       "the vertices)",
                       (unsigned long long)max_value, GC_PROBE_MAX_INDEX_VALUE - 1);
    uint64_t counter_bytes = (max_value + 1) * 4;
    if (counter_bytes > p->max_storage_range)
        return gc_fail(err, GC_ERR_LIMIT, "vulkan: index value %llu needs %llu bytes of counters; %s allows %llu",
                       (unsigned long long)max_value, (unsigned long long)counter_bytes, p->info.name,
                       (unsigned long long)p->max_storage_range);
    if (per_vertex && per_vertex_len < max_value + 1)
        return gc_fail(err, GC_ERR_USAGE, "per-vertex array holds %zu counters; index value %llu needs more",
                       per_vertex_len, (unsigned long long)max_value);

    uint64_t index_bytes = draw->index_count ? (uint64_t)draw->index_count * 4 : 4;
    if ((s = gc_vk_buffer_ensure(p, &p->indices, index_bytes, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, err)))
        return s;
    /* A new buffer may reuse the old one's handle value: compare sizes, not handles. */
    VkDeviceSize old_size = p->counters.buffer ? p->counters.size : 0;
    if ((s = gc_vk_buffer_ensure(p, &p->counters, counter_bytes,
                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, err)))
        return s;
    if (p->counters.size != old_size) {
        VkDescriptorBufferInfo bi = {p->counters.buffer, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = p->descriptor_set,
                                  .dstBinding = 0, .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi};
        vkUpdateDescriptorSets(p->device, 1, &w, 0, NULL);
    }
    uint32_t* ib = p->indices.mapped;
    for (size_t i = 0; i < draw->index_count; ++i) {
        uint32_t v = draw->indices[i];
        ib[i] = (draw->restart_enabled && v == draw->restart_value) ? UINT32_MAX : v;
    }

    VkPipeline pipeline = VK_NULL_HANDLE;
    if ((s = get_pipeline(p, topology, draw->restart_enabled ? VK_TRUE : VK_FALSE, outputs, &pipeline, err)))
        return s;

    VkCommandBuffer cb = p->command_buffer;
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkResult r = vkResetCommandBuffer(cb, 0);
    if (r == VK_SUCCESS)
        r = vkBeginCommandBuffer(cb, &begin);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "recording the draw");
    vkCmdResetQueryPool(cb, p->query_pool, 0, 1);
    vkCmdFillBuffer(cb, p->counters.buffer, 0, VK_WHOLE_SIZE, 0);
    VkMemoryBarrier to_shader = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                 .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                 .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 0, 1, &to_shader,
                         0, NULL, 0, NULL);
    VkRenderPassBeginInfo rp = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = p->render_pass,
                                .framebuffer = p->framebuffer, .renderArea = {{0, 0}, {1, 1}}};
    vkCmdBeginRenderPass(cb, &rp, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline_layout, 0, 1, &p->descriptor_set, 0,
                            NULL);
    vkCmdBindIndexBuffer(cb, p->indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdBeginQuery(cb, p->query_pool, 0, 0);
    if (draw->index_count)
        vkCmdDrawIndexed(cb, (uint32_t)draw->index_count, 1, 0, 0, 0);
    vkCmdEndQuery(cb, p->query_pool, 0);
    vkCmdEndRenderPass(cb);
    VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL,
                         0, NULL);
    if ((r = vkEndCommandBuffer(cb)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "recording the draw");
    if ((s = gc_vk_submit(p, err)))
        return s;

    uint64_t stats[3] = {0, 0, 0};
    r = vkGetQueryPoolResults(p->device, p->query_pool, 0, 1, sizeof stats, stats, sizeof stats,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkGetQueryPoolResults");
    /* Results come in the order of the statistic bits. */
    out->ia_vertices = stats[0];
    out->ia_primitives = stats[1];
    out->invocations = stats[2];
    const uint32_t* counts = p->counters.mapped;
    uint64_t sum = 0;
    for (uint64_t v = 0; v <= max_value; ++v)
        sum += counts[v];
    out->per_vertex_sum = sum;
    if (per_vertex)
        memcpy(per_vertex, counts, (size_t)(max_value + 1) * 4);
    return GC_OK;
}
