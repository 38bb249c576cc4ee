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
 * The classes' orders are jobs on `threads` workers (gc_parallel_run), the output the same
 * for every thread count. Working memory: 4 bytes a triangle for the sorted list (4 more
 * while it is sorted), with `more` 4 bytes a triangle for the pure classes' second orders,
 * and per worker 16 bytes a triangle of the largest class or group (its triangles as a list
 * and its local order): about 2.7 + 5.4 x workers bytes an index at most, beside the
 * orders' own (the flushed order's and the batch greedy's on at most 65,536 vertices, the
 * paged greedy's below). *classes (if not NULL): the classes found (pure and mixed). */
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
 * thread count. Working memory: the greater of the orders' (two whole-list orders' from a
 * quarter mixed, with 4 bytes a triangle for the second). */
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
