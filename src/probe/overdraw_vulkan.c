// SPDX-License-Identifier: MIT
/* Overdraw measured on the Vulkan device (probe --overdraw): the six views of the overdraw
 * model (docs/models/overdraw.md) rendered for real, 256 x 256 pixels with a 32-bit float
 * depth buffer compared greater-or-equal and cleared to 0. Each side is its own render pass
 * with the other side's triangles culled. The fragment shader runs with early fragment tests,
 * so only fragments that pass the depth test run it; each adds one to its pixel's counter,
 * and the pipeline statistics count its invocations as well. Everything is created for the
 * call and released before it returns. */
#include "../internal.h"
#include "gpucache/gpucache_probe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe_shaders.h"
#include "vulkan_internal.h"

#define GRID 256
#define SAMPLES_PER_VIEW (2u * GRID * GRID)

typedef struct view_push {
    float origin_scale[4];
    int32_t axes[4];
} view_push;

typedef struct overdraw_objects {
    VkImage depth;
    VkDeviceMemory depth_memory;
    VkImageView depth_view;
    VkRenderPass pass;
    VkFramebuffer framebuffer;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkShaderModule vertex, fragment;
    VkPipeline pipeline[2]; /* side 0 keeps front faces, side 1 back faces */
    VkQueryPool query;
    probe_buffer positions, indices, counts;
} overdraw_objects;

static void release(gc_probe* p, overdraw_objects* o)
{
    VkDevice d = p->device;
    vkDeviceWaitIdle(d);
    for (int s = 0; s < 2; ++s)
        if (o->pipeline[s])
            vkDestroyPipeline(d, o->pipeline[s], NULL);
    if (o->vertex)
        vkDestroyShaderModule(d, o->vertex, NULL);
    if (o->fragment)
        vkDestroyShaderModule(d, o->fragment, NULL);
    if (o->pool)
        vkDestroyDescriptorPool(d, o->pool, NULL);
    if (o->layout)
        vkDestroyPipelineLayout(d, o->layout, NULL);
    if (o->set_layout)
        vkDestroyDescriptorSetLayout(d, o->set_layout, NULL);
    if (o->framebuffer)
        vkDestroyFramebuffer(d, o->framebuffer, NULL);
    if (o->pass)
        vkDestroyRenderPass(d, o->pass, NULL);
    if (o->depth_view)
        vkDestroyImageView(d, o->depth_view, NULL);
    if (o->depth)
        vkDestroyImage(d, o->depth, NULL);
    if (o->depth_memory)
        vkFreeMemory(d, o->depth_memory, NULL);
    if (o->query)
        vkDestroyQueryPool(d, o->query, NULL);
    gc_vk_buffer_destroy(p, &o->positions);
    gc_vk_buffer_destroy(p, &o->indices);
    gc_vk_buffer_destroy(p, &o->counts);
}

static gc_status create_target(gc_probe* p, overdraw_objects* o, gc_error* err)
{
    const VkFormat format = VK_FORMAT_D32_SFLOAT;
    VkAttachmentDescription depth = {
        .format = format, .samples = VK_SAMPLE_COUNT_1_BIT, .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE, .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkAttachmentReference ref = {.attachment = 0, .layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                .pDepthStencilAttachment = &ref};
    /* Successive passes write the same depth image and counters: order them. */
    VkSubpassDependency dep = {.srcSubpass = VK_SUBPASS_EXTERNAL, .dstSubpass = 0,
                               .srcStageMask = VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT |
                                               VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                               .dstStageMask = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                               VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                               .srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                                VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    VkRenderPassCreateInfo rp = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, .attachmentCount = 1,
                                 .pAttachments = &depth, .subpassCount = 1, .pSubpasses = &sub,
                                 .dependencyCount = 1, .pDependencies = &dep};
    VkResult r = vkCreateRenderPass(p->device, &rp, NULL, &o->pass);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateRenderPass (overdraw)");
    gc_status s = gc_vk_image_create(p, format, GRID, GRID, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                     VK_IMAGE_ASPECT_DEPTH_BIT, &o->depth, &o->depth_memory, &o->depth_view,
                                     "the depth buffer", err);
    if (s)
        return s;
    VkFramebufferCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, .renderPass = o->pass,
                                  .attachmentCount = 1, .pAttachments = &o->depth_view, .width = GRID,
                                  .height = GRID, .layers = 1};
    if ((r = vkCreateFramebuffer(p->device, &fi, NULL, &o->framebuffer)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateFramebuffer (overdraw)");
    return GC_OK;
}

static gc_status create_pipelines(gc_probe* p, overdraw_objects* o, gc_error* err)
{
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT};
    VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 1, .pBindings = &b};
    VkResult r = vkCreateDescriptorSetLayout(p->device, &li, NULL, &o->set_layout);
    if (r != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateDescriptorSetLayout (overdraw)");
    VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(view_push)};
    VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                     .pSetLayouts = &o->set_layout, .pushConstantRangeCount = 1,
                                     .pPushConstantRanges = &push};
    if ((r = vkCreatePipelineLayout(p->device, &pl, NULL, &o->layout)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreatePipelineLayout (overdraw)");
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                     .poolSizeCount = 1, .pPoolSizes = &size};
    if ((r = vkCreateDescriptorPool(p->device, &pi, NULL, &o->pool)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateDescriptorPool (overdraw)");
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = o->pool, .descriptorSetCount = 1,
                                      .pSetLayouts = &o->set_layout};
    if ((r = vkAllocateDescriptorSets(p->device, &ai, &o->set)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkAllocateDescriptorSets (overdraw)");
    gc_status s = gc_vk_shader_module(p, overdraw_vert_spirv, sizeof overdraw_vert_spirv, &o->vertex, err);
    if (!s)
        s = gc_vk_shader_module(p, overdraw_frag_spirv, sizeof overdraw_frag_spirv, &o->fragment, err);
    if (s)
        return s;

    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = o->vertex, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = o->fragment, .pName = "main"},
    };
    VkVertexInputBindingDescription binding = {0, 3 * sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attribute = {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0};
    VkPipelineVertexInputStateCreateInfo vin = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                                .vertexBindingDescriptionCount = 1,
                                                .pVertexBindingDescriptions = &binding,
                                                .vertexAttributeDescriptionCount = 1,
                                                .pVertexAttributeDescriptions = &attribute};
    VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                 .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkViewport viewport = {0, 0, GRID, GRID, 0, 1};
    VkRect2D scissor = {{0, 0}, {GRID, GRID}};
    VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                            .viewportCount = 1, .pViewports = &viewport, .scissorCount = 1,
                                            .pScissors = &scissor};
    VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                               .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineDepthStencilStateCreateInfo ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                                                .depthTestEnable = VK_TRUE, .depthWriteEnable = VK_TRUE,
                                                .depthCompareOp = VK_COMPARE_OP_GREATER_OR_EQUAL};
    VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    for (int side = 0; side < 2; ++side) {
        /* In framebuffer coordinates Vulkan calls a triangle counter-clockwise (front, with
         * this front face) when the model's det is negative: side 0. */
        VkPipelineRasterizationStateCreateInfo rs = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, .polygonMode = VK_POLYGON_MODE_FILL,
            .cullMode = side ? VK_CULL_MODE_FRONT_BIT : VK_CULL_MODE_BACK_BIT,
            .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1.0f};
        VkGraphicsPipelineCreateInfo gi = {
            .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .stageCount = 2, .pStages = stages,
            .pVertexInputState = &vin, .pInputAssemblyState = &ia, .pViewportState = &vp,
            .pRasterizationState = &rs, .pMultisampleState = &ms, .pDepthStencilState = &ds,
            .pColorBlendState = &cb, .layout = o->layout, .renderPass = o->pass, .subpass = 0};
        if ((r = vkCreateGraphicsPipelines(p->device, VK_NULL_HANDLE, 1, &gi, NULL, &o->pipeline[side])) !=
            VK_SUCCESS)
            return gc_vk_fail(err, r, "vkCreateGraphicsPipelines (overdraw)");
    }
    VkQueryPoolCreateInfo qp = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS, .queryCount = 1,
                                .pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT};
    if ((r = vkCreateQueryPool(p->device, &qp, NULL, &o->query)) != VK_SUCCESS)
        return gc_vk_fail(err, r, "vkCreateQueryPool (overdraw)");
    return GC_OK;
}

/* Uploads positions (packed x, y, z) and indices, with the box the views are scaled by. */
static gc_status upload(gc_probe* p, overdraw_objects* o, const uint32_t* indices, size_t index_count,
                        const float* positions, size_t vertex_count, size_t stride, float origin_scale[4],
                        gc_error* err)
{
    gc_status s = gc_vk_buffer_ensure(p, &o->positions, vertex_count * 3 * sizeof(float),
                                      VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, err);
    if (!s)
        s = gc_vk_buffer_ensure(p, &o->indices, index_count * sizeof(uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                err);
    if (!s)
        s = gc_vk_buffer_ensure(p, &o->counts, SAMPLES_PER_VIEW * sizeof(uint32_t),
                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, err);
    if (s)
        return s;
    size_t step = stride / sizeof(float);
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    float* xyz = o->positions.mapped;
    for (size_t v = 0; v < vertex_count; ++v)
        for (int k = 0; k < 3; ++k) {
            float c = positions[v * step + (size_t)k];
            if (!isfinite(c))
                return gc_fail(err, GC_ERR_DATA,
                                     "overdraw: vertex %zu has a coordinate that is not a finite number", v);
            xyz[3 * v + (size_t)k] = c;
            lo[k] = c < lo[k] ? c : lo[k];
            hi[k] = c > hi[k] ? c : hi[k];
        }
    float extent = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
    for (int k = 0; k < 3; ++k)
        origin_scale[k] = lo[k];
    origin_scale[3] = extent > 0.0f ? (float)GRID / extent : 0.0f;
    memcpy(o->indices.mapped, indices, index_count * sizeof(uint32_t));
    return GC_OK;
}

/* Records one view: the counters cleared, then each side's pass from a cleared depth. */
static void record_view(overdraw_objects* o, VkCommandBuffer cb, int view, size_t index_count,
                        const float origin_scale[4])
{
    /* For the view along axis a, the picture's x and y and the depth (as the model's). */
    static const int32_t view_axes[3][3] = {{2, 1, 0}, {0, 2, 1}, {1, 0, 2}};
    vkCmdResetQueryPool(cb, o->query, 0, 1);
    vkCmdFillBuffer(cb, o->counts.buffer, 0, VK_WHOLE_SIZE, 0);
    VkMemoryBarrier to_shader = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                 .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                 .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 1,
                         &to_shader, 0, NULL, 0, NULL);
    vkCmdBeginQuery(cb, o->query, 0, 0);
    VkDeviceSize zero = 0;
    for (int side = 0; side < 2; ++side) {
        VkClearValue clear = {.depthStencil = {0.0f, 0}};
        VkRenderPassBeginInfo rp = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = o->pass,
                                    .framebuffer = o->framebuffer, .renderArea = {{0, 0}, {GRID, GRID}},
                                    .clearValueCount = 1, .pClearValues = &clear};
        view_push push = {{origin_scale[0], origin_scale[1], origin_scale[2], origin_scale[3]},
                          {view_axes[view][0], view_axes[view][1], view_axes[view][2], side}};
        vkCmdBeginRenderPass(cb, &rp, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, o->pipeline[side]);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, o->layout, 0, 1, &o->set, 0, NULL);
        vkCmdPushConstants(cb, o->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push,
                           &push);
        vkCmdBindVertexBuffers(cb, 0, 1, &o->positions.buffer, &zero);
        vkCmdBindIndexBuffer(cb, o->indices.buffer, 0, VK_INDEX_TYPE_UINT32);
        vkCmdDrawIndexed(cb, (uint32_t)index_count, 1, 0, 0, 0);
        vkCmdEndRenderPass(cb);
    }
    vkCmdEndQuery(cb, o->query, 0);
    VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                         NULL, 0, NULL);
}

gc_status gc_probe_overdraw(gc_probe* p, const uint32_t* indices, size_t index_count, const float* positions,
                            size_t vertex_count, size_t position_stride, gc_probe_overdraw_result* out,
                            gc_error* err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!p || !out || (index_count && (!indices || !positions)))
        return gc_fail(err, GC_ERR_USAGE, "overdraw: the probe, indices, positions and result are required");
    if (!p->fragment_atomics)
        return gc_fail(err, GC_ERR_UNSUPPORTED,
                             "vulkan: %s has no fragment shader atomics; overdraw cannot be counted there",
                             p->info.name);
    if (index_count % 3)
        return gc_fail(err, GC_ERR_DATA, "overdraw: %zu indices is not a whole number of triangles",
                             index_count);
    if (index_count > UINT32_MAX || vertex_count > UINT32_MAX / 12)
        return gc_fail(err, GC_ERR_LIMIT, "vulkan: %zu indices over %zu vertices is more than one draw takes",
                             index_count, vertex_count);
    size_t stride = position_stride ? position_stride : 3 * sizeof(float);
    if (stride < 3 * sizeof(float) || stride % sizeof(float))
        return gc_fail(err, GC_ERR_USAGE, "overdraw: a position stride of %zu bytes cannot hold x, y, z",
                             position_stride);
    for (size_t i = 0; i < index_count; ++i)
        if (indices[i] >= vertex_count)
            return gc_fail(err, GC_ERR_DATA, "overdraw: index %zu is %u, past the %zu vertices", i,
                                 indices[i], vertex_count);
    if (index_count == 0 || vertex_count == 0)
        return GC_OK;

    overdraw_objects o;
    memset(&o, 0, sizeof o);
    float origin_scale[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    gc_status s = create_target(p, &o, err);
    if (!s)
        s = create_pipelines(p, &o, err);
    if (!s)
        s = upload(p, &o, indices, index_count, positions, vertex_count, stride, origin_scale, err);
    if (s || origin_scale[3] == 0.0f) {
        release(p, &o);
        return s;
    }
    VkDescriptorBufferInfo bi = {o.counts.buffer, 0, SAMPLES_PER_VIEW * 4};
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = o.set, .dstBinding = 0,
                              .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              .pBufferInfo = &bi};
    vkUpdateDescriptorSets(p->device, 1, &w, 0, NULL);
    /* One submission per view, its counters read back before the next clears them. */
    for (int view = 0; view < 3 && !s; ++view) {
        VkCommandBuffer cb = p->command_buffer;
        VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                          .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        VkResult r = vkResetCommandBuffer(cb, 0);
        if (r == VK_SUCCESS)
            r = vkBeginCommandBuffer(cb, &begin);
        if (r == VK_SUCCESS) {
            record_view(&o, cb, view, index_count, origin_scale);
            r = vkEndCommandBuffer(cb);
        }
        if (r != VK_SUCCESS) {
            s = gc_vk_fail(err, r, "recording the overdraw views");
            break;
        }
        if ((s = gc_vk_submit(p, err)))
            break;
        uint64_t invocations = 0;
        r = vkGetQueryPoolResults(p->device, o.query, 0, 1, sizeof invocations, &invocations, sizeof invocations,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (r != VK_SUCCESS) {
            s = gc_vk_fail(err, r, "vkGetQueryPoolResults (overdraw)");
            break;
        }
        out->fragment_invocations += invocations;
        const uint32_t* counts = o.counts.mapped;
        for (size_t i = 0; i < SAMPLES_PER_VIEW; ++i) {
            out->covered += counts[i] > 0;
            out->shaded += counts[i];
        }
    }
    out->ratio = out->covered ? (double)out->shaded / (double)out->covered : 0.0;
    release(p, &o);
    return s;
}
