// SPDX-License-Identifier: MIT
/* What the Vulkan probe's files share: the probe's state and its small Vulkan helpers
 * (vulkan.c defines them; overdraw_vulkan.c draws the overdraw views with them). */
#ifndef GPUCACHE_VULKAN_INTERNAL_H
#define GPUCACHE_VULKAN_INTERNAL_H

#include "gpucache/gpucache_probe.h"

#include <vulkan/vulkan.h>

#define PIPELINE_CACHE_SLOTS 64

typedef struct probe_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void* mapped;
} probe_buffer;

typedef struct pipeline_slot {
    VkPrimitiveTopology topology;
    VkBool32 restart;
    uint32_t outputs;
    VkPipeline pipeline;
} pipeline_slot;

struct gc_probe {
    gc_probe_device info;
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkPhysicalDeviceMemoryProperties memory;
    VkDeviceSize max_storage_range;
    VkCommandPool command_pool;
    VkCommandBuffer command_buffer;
    VkFence fence;
    VkQueryPool query_pool;
    VkRenderPass render_pass;
    VkImage image;
    VkDeviceMemory image_memory;
    VkImageView image_view;
    VkFramebuffer framebuffer;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet descriptor_set;
    VkShaderModule vertex_modules[GC_PROBE_MAX_OUTPUTS + 1];
    VkShaderModule fragment_modules[GC_PROBE_MAX_OUTPUTS + 1];
    pipeline_slot pipelines[PIPELINE_CACHE_SLOTS];
    size_t pipeline_count;
    probe_buffer indices, counters;
    int fragment_atomics; /* fragmentStoresAndAtomics enabled: the overdraw views can count */
};

/* One line for a failed Vulkan call: GC_ERR_NOMEM for out-of-memory results, else
 * GC_ERR_UNSUPPORTED. */
gc_status gc_vk_fail(gc_error* err, VkResult r, const char* what);
/* The first memory type among `bits` with every flag of `want`; -1 if none. */
int gc_vk_memory_type(const gc_probe* p, uint32_t bits, VkMemoryPropertyFlags want);
void gc_vk_buffer_destroy(gc_probe* p, probe_buffer* b);
/* Makes `b` a host-visible, coherent, mapped buffer of at least `size` bytes. */
gc_status gc_vk_buffer_ensure(gc_probe* p, probe_buffer* b, VkDeviceSize size, VkBufferUsageFlags usage,
                              gc_error* err);
/* Creates *out from SPIR-V unless it exists already. */
gc_status gc_vk_shader_module(gc_probe* p, const uint32_t* code, size_t bytes, VkShaderModule* out, gc_error* err);
/* A 2D image of one sample with its memory (any type) and a view of `aspect`; `what` names
 * it in the message. The caller destroys the three, as far as they were made. */
gc_status gc_vk_image_create(gc_probe* p, VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage,
                             VkImageAspectFlags aspect, VkImage* image, VkDeviceMemory* memory, VkImageView* view,
                             const char* what, gc_error* err);
/* Submits the probe's command buffer and waits for it. */
gc_status gc_vk_submit(gc_probe* p, gc_error* err);

#endif
