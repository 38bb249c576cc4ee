// SPDX-License-Identifier: MIT
/* The page-classed order (paged_order.c) for nv-gl with pages (the H100, docs/models/nvidia-h100.md)
 * where a list's values change page and the numbering is kept. Part of optimize.h's family
 * (included by the files that run it). */
#ifndef GPUCACHE_PAGED_ORDER_H
#define GPUCACHE_PAGED_ORDER_H

#include "optimize.h"

/* A triangle's class: the set of its corners' pages (value >> target->p[3]). Pure classes
 * hold the triangles whose three corners are on one page; the others are mixed. */

/* Writes a triangle order of the list for nv-gl target `target` with pages (p[3] != 0;
 * GC_ERR_USAGE otherwise): the pure classes by page, each ordered by nv-gl's page-blind rule
 * on its own triangles (exact there: no page changes inside a pure class), and after each
 * pure class p the mixed triangles whose lowest page is p (the mixed classes, in order of
 * their pages), ordered as one group by the page-aware greedy (`more`) or by the flushed
 * order (blind to the pages). Pure classes: the flushed Forsyth order with Kerbl's batches
 * (gc_opt_forsyth_flush_kerbl) and, with `more`, Kerbl's batch greedy
 * (gc_opt_batch_greedy_kerbl) too, the cheaper by the batch rule kept per class.
 * The classes' orders are jobs on `threads` workers (gc_parallel_run), the largest classes
 * first, the output the same for every thread count. Working memory: 8 bytes a triangle while
 * the list is sorted by class, then 4 for the sorted list, with `more` 4 for the pure classes'
 * second orders; 72 bytes a page and 17 a group (at most two a page, one a triangle); where
 * groups are mixed, 4 bytes a vertex of the list per worker; and per job running (at most
 * `threads`) 12 bytes a triangle of its class (its list; 24 for a mixed group) beside its
 * order's own: the flushed order's and the batch greedy's on at most 65,536 vertices (about
 * 17 and 30 bytes a triangle), the paged greedy's (below) on the group's vertices. A pure class
 * over 1 / (2 x threads) of the list runs its two orders one after the other in one job (two
 * side by side would each hold most of the list), and where it comes first in the output its
 * order is chosen in that job and it stays out of the sorted list and the second orders (8
 * bytes a triangle less; a 4-byte table maps its order once its list is freed). Measured
 * (tests/test_auto_memory.c, peak resident growth of auto): 1,048,576 triangles on 66,049
 * vertices (page 0 holding 99.6%) 15.5 bytes an index on one thread, 15.8 on two.
 * *classes (if not NULL): the classes found (pure and mixed). More than UINT32_MAX / 3
 * triangles: GC_ERR_LIMIT (the machine counts corners in 32 bits). */
gc_status gc_opt_paged_order(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const gc_model* target, bool more, unsigned threads, uint32_t* order, size_t* classes,
                             gc_error* err);

/* auto's order for such a target where the pages change and the numbering is kept (--effort 1,
 * and the default with `more`), by the share of mixed triangles: effort 1 the classes
 * (gc_opt_paged_order) under half, else the greedy below on the whole list; the default the
 * classes with `more` under a quarter (igea as scanned: 10% mixed), from a quarter to half
 * those and the whole list's greedy, from half the whole list's greedy with 2 and 3 recent
 * vertices (igea subdivided: 77%), the cheaper by the rule of each pair kept. On igea -11.8%
 * (effort 1) and -12.2% (the default) against meshoptimizer's order, where auto's general
 * greedy gave -10.1%; on igea subdivided twice -21.5% where it gave -15.4%
 * (docs/optimizers/auto.md, "nvidia-h100 with the numbering kept"). The same output for every
 * thread count. Working memory, by path: the paged greedy's alone (effort 1 from half
 * mixed); gc_opt_paged_order's (under half at effort 1, under a quarter at the default); from
 * a quarter to half at the default, 4 bytes a triangle for the whole list's order, and
 * gc_opt_paged_order's and the whole list's greedy (a job beside the classes': 20 bytes a
 * vertex, 13 a triangle) alive at once; from half, 4 bytes a triangle for the second order
 * and the two greedies (side by side on two threads or more: 2 x (20 V + 13 T) bytes).
 * More than UINT32_MAX / 3 triangles: GC_ERR_LIMIT. */
gc_status gc_opt_paged_kept(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                            const gc_model* target, bool more, unsigned threads, uint32_t* order, gc_error* err);
/* The greedy that follows the pages (paged_greedy.c): each step the remaining triangle of the
 * last recent_limit (1 to GC_PAGED_RECENT_MAX) vertices used with the fewest invocations
 * under `target` (nv-gl with pages: its lookup, gc_kerbl_lookup_paged), with a bonus for the
 * vertices it finishes; *invocations (if not NULL): the order's count under the target, a
 * list drawn alone. Working memory: 20 bytes a vertex, 13 bytes a triangle. */
gc_status gc_opt_paged_greedy(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                              const gc_model* target, unsigned recent_limit, uint32_t* order,
                              uint64_t* invocations, gc_error* err);
#define GC_PAGED_RECENT_MAX 8
/* The same on a list in numbers of its own: vertex v's page is vertex_page[v] (NULL: the
 * value's, v >> target->p[3]), so that a list of a few vertices from anywhere in a large
 * numbering costs its own vertices only (paged_order.c's mixed groups). */
gc_status gc_paged_greedy_of(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                             const uint32_t* vertex_page, const gc_model* target, unsigned recent_limit,
                             uint32_t* order, uint64_t* invocations, gc_error* err);

#endif
