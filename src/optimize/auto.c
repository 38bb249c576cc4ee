// SPDX-License-Identifier: MIT
/* auto — gpucache's own optimizer: it minimizes the invocations of the models the user
 * targets (default: intel, nvidia-kepler, nvidia-pascal and amd-gcn together), driving each
 * target's own state machine (gc_sim, src/models/): it states no rule itself.
 *
 * 1. Target-aware greedy. Triangles are emitted one by one while the targets' machines run
 *    alongside. The next triangle is, among the remaining triangles of the 5 to 10 most
 *    recently used vertices, the one with the fewest invocations summed over the targets
 *    (priced with gc_sim_peek), less two bonuses: one (weight `beta`) for finishing vertices
 *    (Forsyth's valence boost), one (weight `gamma`) for using cached vertices that are close
 *    to eviction and still have triangles left (gc_sim_age). Dead ends go back to the most
 *    recent vertex with triangles left (Tipsify's dead-end stack), then to input order.
 * 2. Selection. The greedy (more variants with more `effort`; the seed perturbs them),
 *    Forsyth's algorithm with a score table tuned on the vertex cache models, meshoptimizer's
 *    variant with its own table (score_table.c), patches for the rules that cut the work into
 *    pieces (patches.c: llvmpipe's segments, batches, warps), Tipsify for large FIFOs, are
 *    scored with the exact rules, value-keyed ones with the numbering the output will have;
 *    the order with the fewest invocations summed over the targets wins. For llvmpipe the
 *    candidates and the winner are polished for its segments and its table.
 * 3. With more effort, a local search over short windows, replayed and rolled back
 *    (gc_sim_save / gc_sim_restore); for meshopt warp targets, swaps between warps.
 * The machines side by side, the greedy and the local search are in target_sims.c. */
#include "optimize.h"
#include "order_race.h"
#include "auto_parts.h"
#include "auto_warps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TARGETS GC_TARGET_SIMS_MAX

/* Progress in work units, so that the fraction reported follows the time: measured at
 * --effort 3 on the corpus (stanford-bunny: the presets, nvidia-pascal, fifo:16), a greedy
 * variant takes about 3 to 12 times as long as the other candidates, a pass of the local
 * search 4 to 7 greedy variants, the swaps between warps about two candidates. Before,
 * every candidate counted one and the work after them none, so that the line reached 100%
 * with 60-75% of the time still ahead. */
enum {
    UNIT = 64,
    GREEDY_UNITS = 8 * UNIT,
    OTHER_UNITS = UNIT,
    REFINE_UNITS = 2 * UNIT,
    SEARCH_PASS_UNITS = GC_WINDOW_SEARCH_TICKS * UNIT
};
typedef struct auto_progress {
    const gc_optimize_options* options;
    uint64_t done, total;
} auto_progress;

static void progress_add(auto_progress* p, uint64_t units)
{
    p->done += units;
    if (p->done > p->total)
        p->done = p->total;
    if (p->options->progress)
        p->options->progress(p->options->progress_user, p->done, p->total);
}

/* The local search's ticks (GC_WINDOW_SEARCH_TICKS a pass), UNIT each. */
static void progress_ticks(void* user, uint32_t ticks)
{
    progress_add(user, (uint64_t)ticks * UNIT);
}

/* ------------------------------------------------------------- selection */

/* gc_auto_order_cost and gc_auto_keep_if_better (auto_cost.c) without the targets' own counts. */
static gc_status order_cost(uint32_t* order, size_t index_count, uint32_t vertex_count, const gc_model* targets,
                            size_t target_count, const gc_stream_place* place, uint64_t* cost, gc_error* err)
{
    return gc_auto_order_cost(order, index_count, vertex_count, targets, target_count, place, cost, NULL, NULL, err);
}

static gc_status keep_if_better(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                                const uint32_t* candidate, uint32_t* expanded, const gc_model* targets,
                                size_t target_count, const gc_stream_place* place, uint64_t* best_cost, uint32_t* order,
                                gc_error* err)
{
    return gc_auto_keep_if_better(indices, triangle_count, vertex_count, candidate, expanded, targets, target_count,
                                  place, best_cost, order, NULL, NULL, err);
}

/* The cache size Tipsify aims at for a target (0: none), at most 256. */
static uint32_t target_cache_size(const gc_family_traits* t)
{
    return t->order_cache < 256 ? t->order_cache : 256;
}

/* Each target's invocations for a triangle order (the overdraw budget's gc_order_costs_fn). */
typedef struct budget_costs {
    const uint32_t* indices;
    size_t triangle_count;
    uint32_t vertex_count;
    const gc_model* targets;
    size_t target_count;
    const gc_stream_place* place;
    uint32_t* expanded;
    const uint64_t* cap;  /* the balance's (NULL: none), over the order `start` of costs `first`: */
    const uint32_t* start; /* tried, another order priced; fit, one within T x first and cap */
    double threshold;
    uint64_t first[MAX_TARGETS];
    bool tried, fit;
} budget_costs;

static gc_status target_costs(void* user, const uint32_t* order, uint64_t* costs, gc_error* err)
{
    budget_costs* b = user;
    bool fit = b->cap && memcmp(order, b->start, b->triangle_count * sizeof *order) != 0;
    b->tried |= fit;
    for (size_t k = 0; k < b->target_count; ++k) {
        /* expanded once, unless order_cost renumbers it in place (value-keyed targets) */
        for (size_t t = 0; t < b->triangle_count && (k == 0 || b->place->numbering); ++t)
            memcpy(b->expanded + 3 * t, b->indices + 3 * (size_t)order[t], 3 * sizeof *b->expanded);
        gc_status s = order_cost(b->expanded, b->triangle_count * 3, b->vertex_count, &b->targets[k], 1, b->place,
                                 &costs[k], err);
        if (s)
            return s;
        fit &= b->cap && costs[k] <= b->cap[k] && costs[k] <= (uint64_t)floor(b->threshold * (double)b->first[k]);
        if (b->cap && costs[k] > b->cap[k])
            costs[k] = UINT64_MAX / 2; /* above any threshold times the order's own */
    }
    b->fit |= fit;
    return GC_OK;
}

/* One target's invocations (auto_balance.c's gc_target_cost_fn). */
static gc_status one_target_cost(void* user, const uint32_t* order, bool expand, size_t k, uint64_t* cost,
                                 gc_error* err)
{
    const budget_costs* b = user;
    for (size_t t = 0; t < b->triangle_count && (expand || b->place->numbering); ++t)
        memcpy(b->expanded + 3 * t, b->indices + 3 * (size_t)order[t], 3 * sizeof *b->expanded);
    return order_cost(b->expanded, b->triangle_count * 3, b->vertex_count, &b->targets[k], 1, b->place, cost, err);
}

/* A worker of auto's candidate loop: its buffers (worker 0's are gc_opt_auto's own) and the
 * best order it has scored, with its key (candidate number, then which of its orders). */
typedef struct candidate_worker {
    uint32_t *candidate, *expanded, *best;
    gc_stream_place place; /* its own numbering scratch */
    uint64_t best_cost, best_key;
    bool parked; /* `best` is still in `expanded` (keep_counted) */
    /* each target's count of the last order scored and of `best` (for the balance), where known */
    uint64_t scored[MAX_TARGETS], best_each[MAX_TARGETS];
    bool scored_known, best_known;
} candidate_worker;

typedef struct candidate_jobs {
    const uint32_t* indices;
    size_t triangle_count;
    uint32_t vertex_count;
    const gc_model* targets;
    size_t target_count;
    const gc_family_traits* traits;
    unsigned effort;
    size_t greedy_variants, tipsify_count, batch_at, forsyth_at, patch_count;
    bool skip_tuned; /* the tuned Forsyth order left out (gc_auto_lean.no_tuned, or lone maxwell) */
    const float (*greedy)[3]; /* each greedy variant's beta, gamma and recent vertices */
    const uint32_t* tipsify_sizes;
    const uint32_t (*patch_limits)[4];
    const size_t* batch_targets;
    size_t machine_at; /* the machine greedy's job (a lone direct-value or llvmpipe target), else past the last */
    float machine_beta;
    uint32_t machine_recent;
    size_t occlusion_at; /* the overdraw pass's occlusion pairs (several threads, positions), else past the last */
    const float* positions;
    size_t position_stride;
    gc_occlusion_ahead* occlusion;
    candidate_worker* workers;
    auto_progress* progress;
    uint64_t units_total; /* reported so far (the calling thread's reports) */
    uint32_t* reference; /* meshoptimizer's table order, for the balance (NULL: not kept) */
    bool* have_reference;
    uint64_t* reference_each; /* its count under each target, where known (*reference_known) */
    bool* reference_known;
    bool nv_batch_pair; /* nv-dx or nv-gl alone: the batch greedy (Forsyth where it refuses) */
    size_t flush_at;    /* nv-dx or nv-gl alone: effort 1's flushed order's job, else past the last */
    gc_flush_rule flush_rule;
    gc_order_race* race; /* ... the two raced (order_race.h; the flushed order's job handed out first), or NULL */
    bool pair_scored;   /* ... a paged nv-gl (the H100): those two orders scored by its model */
    size_t machine_part_from, polish_at; /* a lone direct-value (its part found late) or llvmpipe target */
    gc_table_pipe* pipe;
} candidate_jobs;

/* Scores the worker's candidate, the sub-th order of candidate v, and keeps it if it is the
 * worker's cheapest so far (a worker meets its candidates in increasing order). */
static gc_status worker_keep(const candidate_jobs* J, candidate_worker* w, size_t v, unsigned sub, gc_error* err)
{
    if (w->parked) /* (`expanded` is the count's scratch) */
        memcpy(w->best, w->expanded, J->triangle_count * sizeof *w->best), w->parked = false;
    uint64_t before = w->best_cost;
    gc_status s = gc_auto_keep_if_better(J->indices, J->triangle_count, J->vertex_count, w->candidate, w->expanded,
                                         J->targets, J->target_count, &w->place, &w->best_cost, w->best, w->scored,
                                         &w->scored_known, err);
    if (!s && w->best_cost != before) {
        w->best_key = ((uint64_t)v << 6) + sub; /* sub < 2 + MAX_TARGETS */
        w->best_known = w->scored_known;
        memcpy(w->best_each, w->scored, J->target_count * sizeof *w->best_each);
    }
    return s;
}

static void candidate_units(void* user, uint64_t units)
{
    candidate_jobs* J = user;
    auto_progress* p = J->progress;
    p->done += units - J->units_total;
    J->units_total = units;
    if (p->done > p->total)
        p->done = p->total;
    if (p->options->progress)
        p->options->progress(p->options->progress_user, p->done, p->total);
}

/* An order priced (cost) with worker_keep's key: kept as worker_keep keeps (by key among equals).
 * One made in the worker's `expanded` stays there (parked) until it is beaten or the jobs end:
 * the flushed order, while the batch greedy that races it holds its own (order_race.h), so
 * that two orders of scratch are not held beside the greedy's (test_auto_memory). */
static void keep_counted(const candidate_jobs* J, candidate_worker* w, uint64_t key, uint64_t cost, const uint32_t* o)
{
    if (cost < w->best_cost || (cost == w->best_cost && key < w->best_key)) {
        w->best_cost = cost, w->best_key = key, w->best_known = false;
        if (!(w->parked = o == w->expanded))
            memcpy(w->best, o, J->triangle_count * sizeof *o);
    }
}

/* Candidate v of auto's loop (gc_parallel_run's job): made, scored, kept if the worker's best. */
static gc_status candidate_job(void* user, size_t v, unsigned worker, uint64_t* units, gc_error* err)
{
    const candidate_jobs* J = user;
    candidate_worker* w = &J->workers[worker];
    const uint32_t* indices = J->indices;
    const size_t triangle_count = J->triangle_count;
    const uint32_t vertex_count = J->vertex_count;
    const gc_stream_place* place = &w->place;
    uint32_t* candidate = w->candidate;
    gc_status s = GC_OK;
    if (J->race && !J->race->batch_leads) /* the leader's job first: the chaser waits for its marks */
        v = v == J->batch_at ? J->flush_at : v == J->flush_at ? J->batch_at : v;
    if (v == J->occlusion_at) { /* not a candidate: its status is the overdraw pass's to report */
        *units = OTHER_UNITS;
        gc_occlusion_ahead_run(J->occlusion, indices, triangle_count, vertex_count, J->positions, J->position_stride);
        return GC_OK;
    }
    if (v == J->polish_at) { /* a lone llvmpipe target: its greedy's polish (sub-order 2) */
        uint64_t cost = UINT64_MAX;
        *units = OTHER_UNITS;
        s = gc_table_pipe_polish(J->pipe, indices, triangle_count, vertex_count, J->targets, candidate, &cost, err);
        if (cost != UINT64_MAX)
            keep_counted(J, w, 2, cost, candidate); /* (candidate 0's) */
        return s;
    }
    if (v == J->flush_at) { /* numbered after the batch greedy's: it wins only where strictly better */
        *units = OTHER_UNITS;
        uint64_t cost = 0; /* counted with the rule's own step as it is emitted (the same count, no gc_sim) */
        uint32_t* made = J->race ? w->expanded : candidate; /* raced: parked (keep_counted) */
        bool gave_up = false; /* from 1M triangles effort 1's order, the batch greedy on its tail (flush_tail.c) */
        s = triangle_count >= GC_FLUSH_FINE_TRIANGLES
                ? gc_opt_flush_batch_tail_race(indices, triangle_count, vertex_count, &J->flush_rule, &J->targets[0],
                                               J->race, made, &cost, &gave_up, err)
                : gc_opt_forsyth_flush_kerbl_race(indices, triangle_count, vertex_count, &gc_flush_batch_scores,
                                                  &J->flush_rule, &J->targets[0], J->race, made, &cost, err);
        if (J->race && !J->race->batch_leads)
            gc_order_race_finish(J->race);
        if (gave_up) /* it trailed the batch greedy: not kept (order_race.h) */
            return s;
        if (!s && J->pair_scored) /* its count follows Kerbl's rule without the pages */
            return worker_keep(J, w, v, 1, err);
        if (!s)
            keep_counted(J, w, ((uint64_t)v << 6) + 1, cost, made);
        return s;
    }
    const bool machine = v == J->machine_at; /* (it may be numbered as forsyth_at where those are left out) */
    bool is_reference = false;
    /* the candidates after the tuned Forsyth order, where it is left out, numbered as they would be
     * (their keys, and so the winner among equals, do not depend on it) */
    v += J->skip_tuned && v >= J->forsyth_at;
    *units = v < J->greedy_variants ? GREEDY_UNITS : OTHER_UNITS;
    if (machine && J->machine_part_from && /* (found out here, beside the greedy) */
        gc_largest_surface_part(indices, triangle_count, vertex_count) >= J->machine_part_from)
        return GC_OK;
    bool counted = false;
    if (machine) {
        s = gc_opt_machine_greedy(indices, triangle_count, vertex_count, &J->targets[0], place->position / 3,
                                  place->length, place->numbering != NULL, J->machine_beta, J->machine_recent,
                                  candidate, err);
    } else if (v < J->greedy_variants) {
        const float beta = J->greedy[v][0], gamma = J->greedy[v][1];
        const uint32_t recent = (uint32_t)J->greedy[v][2];
        gc_fifo_machine fm;
        if (J->target_count == 1 && gc_fifo_machine_of(&J->targets[0], &fm)) /* the same order, faster */
            s = gc_opt_fifo_greedy(indices, triangle_count, vertex_count, &fm, beta, gamma, recent, candidate, err);
        else if (J->target_count == 1 && gc_nvidia_greedy_fits(&J->targets[0])) /* likewise (nvidia-kepler) */
            s = gc_opt_nvidia_greedy(indices, triangle_count, vertex_count, &J->targets[0], place->position / 3, beta,
                                     gamma, recent, candidate, err);
        else if (J->target_count == 1 && gc_value_table_target(J->targets)) {
            uint32_t* made; /* likewise (llvmpipe_pipe.c; direct-value's table is llvmpipe's without segments) */
            uint64_t cost;
            s = gc_table_pipe_greedy(J->pipe, indices, triangle_count, vertex_count, J->targets, place->length, beta,
                                     recent, candidate, &made, &cost, err);
            if ((counted = cost != UINT64_MAX))
                keep_counted(J, w, ((uint64_t)v << 6) + 1, cost, made);
            if (J->polish_at != SIZE_MAX)
                return s;
        } else {
            s = gc_opt_target_greedy(indices, triangle_count, vertex_count, J->targets, J->target_count, place, beta,
                                     gamma, recent, candidate, err);
        }
    } else if (v < J->greedy_variants + J->tipsify_count) {
        s = gc_opt_tipsify(indices, triangle_count, vertex_count, J->tipsify_sizes[v - J->greedy_variants], candidate,
                           NULL, err);
    } else if (v < J->batch_at) {
        const uint32_t* l = J->patch_limits[v - J->greedy_variants - J->tipsify_count];
        s = gc_opt_patches(indices, triangle_count, vertex_count, l[0], l[1], l[2], 0, candidate, err);
        if (!s && l[3]) {
            /* llvmpipe: the patches as they are, then polished */
            s = worker_keep(J, w, v, 0, err);
            if (!s)
                s = gc_llvmpipe_polish_segments(indices, triangle_count, vertex_count, l, place, J->effort, false,
                                                candidate, err);
        }
    } else if (v < J->forsyth_at) {
        /* SceneProcessor.cpp's weights: "gbatch" 1024, -4, -1; "gbatch.amd" -16 */
        const size_t target = J->batch_targets[v - J->batch_at];
        const gc_batch_greedy_weights bw = {1024, J->traits[target].batch_reuse_weight, -1};
        if (J->nv_batch_pair) {
            /* nv-dx or nv-gl alone: the greedy counts the order's invocations as it feeds its
               machine, the target's cost whatever the list's place and numbering (the rule keys
               its state by vertex and starts each list empty): not scored again */
            uint64_t cost = 0;
            size_t placed; /* fewer than all: it trailed the flushed order, not kept (order_race.h) */
            s = gc_opt_batch_greedy_kerbl_race(indices, triangle_count, vertex_count, &J->targets[0], &bw, J->race,
                                               candidate, &cost, &placed, err);
            if (J->race && J->race->batch_leads)
                gc_order_race_finish(J->race);
            if (!s && !J->pair_scored) {
                if (placed == triangle_count)
                    keep_counted(J, w, ((uint64_t)v << 6) + 1, cost, candidate);
                return GC_OK;
            }
        } else {
            s = gc_opt_batch_greedy(indices, triangle_count, vertex_count, &J->targets[target], &bw,
                                    place->position / 3, place->length, candidate, err);
        }
        if (s == GC_ERR_LIMIT && J->nv_batch_pair) /* a hub: the tuned Forsyth order instead */
            s = gc_opt_forsyth_scored(indices, triangle_count, vertex_count, &gc_auto_tuned_scores, candidate, NULL,
                                      err);
        else if (s == GC_ERR_LIMIT) /* a hub or huge batches: this candidate would not be linear */
            return GC_OK;
    } else if (v == J->forsyth_at) {
        s = gc_opt_forsyth_scored(indices, triangle_count, vertex_count, &gc_auto_tuned_scores, candidate, NULL, err);
    } else if (v == J->forsyth_at + 1) {
        s = gc_opt_score_table(indices, triangle_count, vertex_count, &gc_meshopt_scores, candidate, err);
        if (s == GC_ERR_LIMIT) /* a hub: this candidate would not be linear */
            return GC_OK;
        if (!s && J->reference) /* kept for the balance; one job: no other worker writes it */
            memcpy(J->reference, candidate, triangle_count * sizeof *candidate), *J->have_reference = true;
        is_reference = J->reference != NULL;
    } else if (v == J->forsyth_at + 2 && J->effort > 1) {
        s = gc_opt_forsyth(indices, triangle_count, vertex_count, 32, candidate, NULL, err);
    } else { /* the lone target's family's own table */
        gc_forsyth_scores own;
        s = gc_opt_forsyth_scored(indices, triangle_count, vertex_count, gc_family_forsyth_scores(&J->traits[0], &own),
                                  candidate, NULL, err);
    }
    if (!s && !counted)
        s = worker_keep(J, w, v, 1, err);
    if (!s && is_reference && w->scored_known) { /* its counts, for the balance (the same job) */
        memcpy(J->reference_each, w->scored, J->target_count * sizeof *J->reference_each);
        *J->reference_known = true;
    }
    /* each greedy order polished for llvmpipe's segments too: the greedy's orders differ
     * by a percent or two there, and the polish keeps what is best in each */
    for (size_t k = 0; k < J->patch_count && !s && v < J->greedy_variants; ++k) {
        if (!J->patch_limits[k][3])
            continue;
        s = gc_llvmpipe_polish_segments(indices, triangle_count, vertex_count, J->patch_limits[k], place, J->effort,
                                        false, candidate, err);
        if (!s)
            s = worker_keep(J, w, v, 2 + (unsigned)k, err);
    }
    return s;
}

gc_status gc_opt_auto(const uint32_t* indices, size_t triangle_count, uint32_t vertex_count,
                      const gc_optimize_options* options, const gc_optimize_placement* placement, uint32_t* order,
                      uint32_t* scratch, gc_error* err)
{
    if (triangle_count == 0)
        return GC_OK;
    gc_model defaults[4];
    const gc_model* targets = options->targets;
    size_t target_count = options->target_count;
    if (!targets || target_count == 0) {
        static const char* const presets[] = {"intel", "nvidia-kepler", "nvidia-pascal", "amd-gcn"};
        for (int i = 0; i < 4; ++i)
            if (gc_model_parse(presets[i], &defaults[i], err))
                return GC_ERR_USAGE;
        targets = defaults;
        target_count = 4;
    }
    if (target_count > MAX_TARGETS)
        return gc_fail(err, GC_ERR_USAGE, "auto: at most %d targets", MAX_TARGETS);
    /* --effort 1: one order per target family, nothing scored (auto_fast.c), then the
     * overdraw pass as below (the values scored as they are). The default effort for a lone
     * target whose own orders beat the candidates below on the corpus (ati-basic, reuse,
     * direct-position, lru:16, nvidia-kepler, batch: gc_opt_auto_lone, auto_machine_greedy.c, two or three orders
     * scored) likewise. */
    gc_flush_rule flush_rule;
    gc_family_traits lone_traits;
    gc_model_traits(&targets[0], &lone_traits);
    const bool lone = options->effort == 0 && target_count == 1 &&
                      (gc_flush_rule_of(&targets[0], 0, &flush_rule) || targets[0].family == GC_MODEL_DIRECT_POSITION ||
                       lone_traits.order_scores || (targets[0].family == GC_MODEL_NVIDIA && targets[0].p[0] >= 3) ||
                       targets[0].family == GC_MODEL_BATCH);
    /* ... and nv-gl with pages where they change, the numbering kept (auto_machine_greedy.c) */
    const bool paged_lone = options->effort != 1 && target_count == 1 && !placement->first_use_numbering &&
                            gc_nv_pages_change(&targets[0], vertex_count);
    if (options->effort == 1 || lone || paged_lone) {
        const double threshold = options->overdraw_threshold ? options->overdraw_threshold : 1.05;
        gc_stream_place place = {placement->stream_position, placement->stream_length, NULL};
        budget_costs b = {indices, triangle_count, vertex_count, targets, target_count, &place,
                          scratch, NULL,    NULL,           threshold, {0},     false,        false};
        bool served = false; /* the target's machine driven by a greedy (auto_machine_greedy.c), or auto_fast.c */
        gc_status s = GC_OK;
        gc_occlusion_ahead occlusion; /* the overdraw pass's occlusion pairs, where computed ahead */
        memset(&occlusion, 0, sizeof occlusion);
        bool ahead = false;
        if (lone) {
            /* its orders side by side (lone_jobs.c), each worker with its own scratch; where
               one cannot be had, fewer workers (the same output) */
            budget_costs bw[GC_LONE_ORDERS_MAX];
            void* users[GC_LONE_ORDERS_MAX] = {&b};
            unsigned lone_threads = 1;
            while (lone_threads < options->threads && lone_threads < GC_LONE_ORDERS_MAX) {
                bw[lone_threads] = b;
                if (!(bw[lone_threads].expanded = gc_alloc_array(triangle_count * 3, sizeof(uint32_t), false)))
                    break;
                users[lone_threads] = &bw[lone_threads], ++lone_threads;
            }
            /* with several workers the overdraw pass's occlusion pairs too, a job beside the orders */
            const bool occlusion_job = lone_threads > 1 && options->positions && threshold > 1;
            s = gc_opt_auto_lone(indices, triangle_count, vertex_count, &targets[0], placement, one_target_cost,
                                 lone_threads, users, occlusion_job ? &occlusion : NULL, options->positions,
                                 options->position_stride, order, &served, err);
            for (unsigned k = 1; k < lone_threads; ++k)
                free(bw[k].expanded);
            ahead = occlusion_job && served;
            if (!s && options->progress)
                options->progress(options->progress_user, 1, 1);
        } else {
            s = gc_opt_auto_machine(indices, triangle_count, vertex_count, targets, target_count, options, placement,
                                    order, &served, err);
        }
        if (!s && !served)
            s = gc_opt_auto_fast(indices, triangle_count, vertex_count, targets, target_count, options, order, err);
        if (!s) /* meshoptimizer's order where cheaper: small meshes at --effort 1, grids */
            s = gc_auto_no_harm(indices, triangle_count, vertex_count, targets, target_count, placement,
                                options->effort, scratch, order, err);
        if (s || !options->positions || threshold <= 1) {
            gc_occlusion_free(&occlusion.pairs);
            return s;
        }
        uint32_t* candidate = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
        s = candidate ? gc_opt_overdraw_budget_occlusion(indices, triangle_count, vertex_count, options->positions,
                                                         options->position_stride, options->cache_size, threshold,
                                                         target_count, target_costs, &b,
                                                         placement->first_use_numbering != 0,
                                                         ahead ? &occlusion : NULL, order, candidate, err)
                      : gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
        gc_occlusion_free(&occlusion.pairs);
        free(candidate);
        return s;
    }
    const size_t n = triangle_count * 3;
    gc_family_traits traits[MAX_TARGETS]; /* what auto knows of each target (families.c) */
    for (size_t i = 0; i < target_count; ++i)
        gc_model_traits(&targets[i], &traits[i]);
    uint32_t* candidate = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
    uint32_t* expanded = scratch; /* each candidate as a triangle list, to be scored */
    if (!candidate)
        return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);

    /* The variants. Effort 1: the greedy, and Tipsify for the largest FIFO-like target
     * (a big FIFO is served best by Tipsify's fans at its size). Each more effort adds two
     * greedy settings (beta, gamma, how many recent vertices give candidates), and Tipsify
     * at every target's size. The settings were chosen on the corpus against fifo:16 and
     * the vendor presets; the greedy is chaotic in them, so the variants are worth more
     * than any single best setting. */
    static const struct {
        float beta, gamma;
        uint32_t recent;
    } weights[] = {{0.75f, 0.1f, 7}, {0.75f, 0.1f, 6}, {1.0f, 0.2f, 8}, {0.5f, 0.1f, 8}, {1.0f, 0.1f, 5},
                   {0.5f, 0.2f, 7},  {1.5f, 0.1f, 8},  {0.25f, 0.1f, 6}, {0.75f, 0.3f, 10}};
    const size_t weight_count = sizeof weights / sizeof weights[0];
    unsigned effort = options->effort > 1 ? options->effort : 1; /* 0: the default, the old effort 1 */
    size_t greedy_variants = 1 + 2 * ((size_t)effort - 1);
    if (greedy_variants > weight_count)
        greedy_variants = weight_count;
    /* With three targets or more, the greedy's one-triangle compromise lost to the tuned
     * Forsyth order on every corpus mesh (the four presets, shuffled or not), and it costs
     * most of the time: at the default effort it is left out there. */
    if (effort == 1 && target_count >= 3)
        greedy_variants = 0;
    /* A lone nv-dx or nv-gl target at the default effort: the greedy and Kerbl et al.'s batch
     * greedy (batch_greedy.c) only. On the 56 corpus rows (14 meshes stored and shuffled, both
     * targets) the batch greedy won 52, the greedy 4, the patches and the Forsyth orders none
     * (docs/optimizers/auto.md, "The batch families"). Where the batch greedy refuses (a hub
     * vertex) the tuned Forsyth order takes its place. */
    /* nv-gl with pages (the H100), first-use numbering where they change: the pair and the two Forsyth
     * orders scored by the model (docs/models/nvidia-h100.md); the numbering kept: paged_lone above. */
    const bool pages_change = target_count == 1 && gc_nv_pages_change(&targets[0], vertex_count);
    const bool nv_batch_pair = effort == 1 && target_count == 1 &&
                               (targets[0].family == GC_MODEL_NV_DX || targets[0].family == GC_MODEL_NV_GL) &&
                               traits[0].kerbl_batches && (!pages_change || placement->first_use_numbering);
    /* ... and since the flushed Forsyth order (scored after them) won the greedy's rows, the
     * batch greedy alone: the same corpus figures in 7.7x, 7.3x meshoptimizer's time (11.3x, 9.8x) */
    if (nv_batch_pair)
        greedy_variants = 0;
    /* A lone llvmpipe target (segments of the stream): the greedy with a stronger valence bonus and more
     * recent vertices (weights[2], the fewest invocations of the first variants on the corpus), polished below. */
    size_t first_weight = 0;
    if (effort == 1 && target_count == 1 && traits[0].segment_indices)
        first_weight = 2;
    /* A lone target with meshoptimizer's warps, C < W (nvidia-maxwell, amd-gcn; not pascal): 6 recent vertices
     * (weights[1]), as at --effort 1 (auto_fast.c), which beat 7 there on the corpus mean */
    gc_fifo_machine lone_fifo;
    if (effort == 1 && target_count == 1 && !traits[0].warp_sum && gc_fifo_machine_of(&targets[0], &lone_fifo) &&
        lone_fifo.warp_rule)
        first_weight = 1;
    const gc_auto_lean lean = effort == 1 ? gc_auto_default_lean(targets, traits, target_count) : (gc_auto_lean){0};
    /* the largest part of the surface, where a lean choice depends on it (a mesh of many small
     * parts keeps every order: auto_lean.c) */
    const bool part_now = lean.greedy_from && triangle_count >= lean.greedy_from;
    const size_t part = part_now ? gc_largest_surface_part(indices, triangle_count, vertex_count) : 0;
    if (lean.greedy_from && part >= lean.greedy_from)
        greedy_variants = 0;
    uint32_t tipsify_sizes[MAX_TARGETS];
    size_t tipsify_count = 0;
    for (size_t i = 0; i < target_count; ++i) {
        uint32_t k = target_cache_size(&traits[i]);
        if (k == 0 || lean.no_tipsify || nv_batch_pair || (effort == 1 && !(traits[i].fifo_like && k >= 64)))
            continue;
        bool dup = false;
        for (size_t j = 0; j < tipsify_count; ++j)
            dup |= tipsify_sizes[j] == k;
        if (!dup)
            tipsify_sizes[tipsify_count++] = k;
    }
    /* A lone meshopt:C,W,P with C >= W (nvidia-pascal) at the default effort: the greedy, then
     * the swaps between warps (below); the other candidates left out. On the corpus (28 rows)
     * the greedy's order refined beat every other refined candidate on the mean, and the time
     * goes to the swaps (docs/optimizers/auto.md, issue 33). */
    const bool lone_warp = effort == 1 && target_count == 1 && gc_auto_warp_set_targets(targets, 1);
    /* A lone nvidia target (nvidia-kepler) or meshopt one that evicts inside warps of fewer
     * than 64 vertices (nvidia-maxwell), at the default effort: Tipsify and the patches never
     * won there on the corpus (28 rows; 17-28% and 2-7% above meshoptimizer's order for
     * Tipsify, 0.5-12% for maxwell's patches), so they are left out; for the maxwell-like
     * target the tuned Forsyth order too from 16384 triangles (it won only on woody, 1267
     * triangles, where the greedy's order is 0.75% above it; meshoptimizer's table stays, the
     * net that keeps auto from going above meshoptimizer's order: it won on woody shuffled). */
    const bool lone_nv = effort == 1 && target_count == 1 &&
                         (targets[0].family == GC_MODEL_NVIDIA ||
                          (targets[0].family == GC_MODEL_MESHOPT && !traits[0].warp_sum && targets[0].p[1] < 64));
    const bool lone_maxwell = lone_nv && targets[0].family == GC_MODEL_MESHOPT;
    if (lone_warp || lone_nv)
        tipsify_count = 0;
    if (effort == 1 && tipsify_count > 1) {
        uint32_t largest = 0;
        for (size_t j = 0; j < tipsify_count; ++j)
            largest = tipsify_sizes[j] > largest ? tipsify_sizes[j] : largest;
        tipsify_sizes[0] = largest;
        tipsify_count = 1;
    }
    /* Patches for the rules that cut the work into pieces whose cost is their distinct
     * vertices (patches.c): llvmpipe's segments (aligned with the draw's), batches of
     * slots, warps. One per such target. */
    uint32_t patch_limits[MAX_TARGETS][4]; /* triangles, first piece, vertices, llvmpipe's map */
    size_t patch_count = 0;
    gc_stream_place place = {placement->stream_position, placement->stream_length, NULL};
    bool value_keyed = false;
    for (size_t i = 0; i < target_count; ++i)
        value_keyed |= traits[i].value_keyed != 0;
    if (placement->first_use_numbering && value_keyed) {
        place.numbering = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), false);
        if (!place.numbering) {
            free(candidate);
            return gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for the numbering of %u vertices", vertex_count);
        }
    }
    /* (With three targets or more at the default effort, only llvmpipe's: a compromise
     * between several targets is not a patch order, and time is short there.) */
    for (size_t i = 0; i < target_count; ++i) {
        const gc_family_traits* t = &traits[i];
        uint32_t tri = 0, first = 0, verts = 0, map = 0;
        if (!t->pieces || lone_warp || lone_nv || nv_batch_pair ||
            (effort == 1 && target_count >= 3 && !t->segment_indices))
            continue;
        /* a lone batch target (seed 004's slots): the patches won none of the 28 corpus rows
           at the default effort (the greedy 11, the Forsyth orders 17) */
        if (effort == 1 && target_count == 1 && targets[0].family == GC_MODEL_BATCH)
            continue;
        if (t->segment_indices) {
            /* segments of the stream (llvmpipe): from the draw's start */
            tri = t->piece_triangles;
            uint64_t length = place.length ? place.length : n;
            if (length <= t->segment_indices || tri == 0)
                continue; /* one segment: nothing to cut */
            first = tri - (uint32_t)((place.position / 3) % tri);
            map = t->segment_map;
        } else {
            /* batches of slots, warps, Kerbl et al.'s triangle-bounded batches */
            tri = t->piece_triangles, verts = t->piece_vertices;
        }
        if (tri == 0 && verts == 0)
            continue;
        patch_limits[patch_count][0] = tri;
        patch_limits[patch_count][1] = first;
        patch_limits[patch_count][2] = verts;
        patch_limits[patch_count][3] = map;
        patch_count++;
    }
    /* Kerbl et al.'s batch greedy (batch_greedy.c) for each batch-family target (alone or
     * with one or two others): on the corpus it took nvidia-dx and nvidia-gl from 3% above
     * their gbatch to within 0.2% of it, cure-warp and radeonsi-polaris from 2% above to
     * level (docs/optimizers/auto.md). At the default effort it is left out where it never
     * won on the corpus and is auto's slowest candidate: batches of more than 64 vertices
     * (intel-lower-bound, cure-block) and ATI LRUs of fewer than 16 entries (ati-basic,
     * radeonsi-polaris-tess-odd), where the greedy and the Forsyth orders were better. */
    size_t batch_targets[MAX_TARGETS];
    size_t batch_count = 0;
    for (size_t i = 0; i < target_count; ++i) {
        bool use = traits[i].kerbl_batches;
        if (effort == 1)
            use &= target_count < 3 && traits[i].batch_greedy_cheap;
        if (use)
            batch_targets[batch_count++] = i;
    }
    const size_t batch_at = greedy_variants + tipsify_count + (lean.no_patch_jobs ? 0 : patch_count);
    /* ... the tuned Forsyth order, meshoptimizer's table, and with more effort Forsyth's own (32). */
    const size_t forsyth_at = batch_at + batch_count;
    /* Only llvmpipe targets at the default effort: the Forsyth orders never came near the
     * greedy's and the patches' there (their segments are not compact), and the time is
     * better left to those. */
    bool no_forsyth = true;
    for (size_t i = 0; i < target_count; ++i)
        no_forsyth &= traits[i].segment_indices != 0;
    /* A lone fifo target, or meshopt's with warps of 64 vertices or more that evict inside
     * them (amd-gcn), at the default effort: the greedy (or Tipsify from 64 entries) won on
     * all 28 corpus rows (stored and shuffled, issue 33), so the Forsyth orders are left out. */
    no_forsyth |= effort == 1 && target_count == 1 &&
                     (targets[0].family == GC_MODEL_FIFO ||
                      (targets[0].family == GC_MODEL_MESHOPT && !traits[0].warp_sum && targets[0].p[1] >= 64));
    no_forsyth |= lone_warp;
    no_forsyth |= lean.no_forsyth;
    /* the tuned Forsyth order left out: gc_auto_lean's choice, or a lone nvidia-maxwell-like
     * target from 16,384 triangles (it won only on woody, 1,267 triangles) */
    const bool skip_tuned = lean.no_tuned || (lone_maxwell && triangle_count >= 16384);
    size_t total = forsyth_at + ((effort == 1 && no_forsyth) || (nv_batch_pair && !pages_change) ? 0 : 2 + (effort > 1) - skip_tuned);
    /* A lone target whose family has its own Forsyth table (lru:16): that order too, last
     * (it wins only where strictly better); --effort 1 runs it alone. */
    const bool own_table =
        target_count == 1 && traits[0].order_scores && !(effort == 1 && no_forsyth) && !nv_batch_pair;
    total += own_table;
    /* A lone target whose machine effort 1's greedy drives (direct-value, llvmpipe): that order
     * too (auto_machine_greedy.c), the last job, so that it wins only where strictly better, as
     * when it was scored after the others (it runs beside them on the threads). Told of
     * first-use numbering, it keys the machine by those numbers as it assigns them, which the
     * other candidates cannot: on stanford-bunny it took direct-value from 1.3% to 6.0% below
     * meshoptimizer. For llvmpipe only below 32,768 triangles (gc_machine_greedy_default). */
    float machine_beta = 0;
    uint32_t machine_recent = 0;
    const bool machine_lean = part_now && lean.machine_from && part >= lean.machine_from && !place.numbering;
    const size_t machine_part_from = /* where only the machine greedy needs it (direct-value): found in its job */
        !part_now && triangle_count >= lean.machine_from && !place.numbering ? lean.machine_from : 0;
    const size_t machine_at = target_count == 1 && !machine_lean &&
                                      gc_machine_greedy_settings(&targets[0], &machine_beta, &machine_recent) &&
                                      gc_machine_greedy_default(&targets[0], triangle_count)
                                  ? total++
                                  : SIZE_MAX;
    /* The overdraw pass's occlusion pairs (with positions; they depend on the triangles alone):
     * with several threads a job beside the candidates, the last; else computed before the
     * pass. Either way once for both of its passes. */
    const double threshold = options->overdraw_threshold ? options->overdraw_threshold : 1.05;
    gc_occlusion_ahead occlusion;
    memset(&occlusion, 0, sizeof occlusion);
    /* A lone nv-dx or nv-gl target: effort 1's order too (Forsyth's with the batches followed,
     * forsyth_flush.c, its batch table), a job beside the batch greedy's, kept if strictly
     * better: on ogre it was 0.6% below the two greedies' best, and it took the mean from
     * -3.05% to -3.24% (nv-dx), -3.06% to -3.25% (nv-gl); with the batch table instead of the
     * tuned one -3.40% and -3.39%. */
    gc_flush_rule batch_rule = {0};
    const size_t flush_at =
        nv_batch_pair && gc_flush_batch_rule_of(&targets[0], place.position, &batch_rule) ? total++ : SIZE_MAX;
    const bool occlusion_job = options->positions && threshold > 1 && options->threads > 1;
    const size_t occlusion_at = occlusion_job ? total++ : SIZE_MAX;
    gc_table_pipe pipe; /* a lone direct-value or llvmpipe target's greedy (llvmpipe_pipe.c) */
    gc_table_pipe_plan(&pipe, targets, target_count, &place, triangle_count, effort == 1 && greedy_variants == 1,
                       patch_count == 1 ? patch_limits[0] : NULL, options->threads);
    const size_t polish_at = pipe.polish ? total++ : SIZE_MAX;
    /* the work after the candidates, counted in the progress too (see auto_progress) */
    const bool warp_sets = gc_auto_warp_set_targets(targets, target_count);
    const unsigned refine_passes = 2 + 6 * (effort - 1);
    unsigned ls_passes = effort - 1; /* none at the default effort: it keeps auto within 10x of meshoptimizer */
    auto_progress progress = {options, 0, 0};
    progress.total = (uint64_t)greedy_variants * GREEDY_UNITS + (uint64_t)(total - greedy_variants) * OTHER_UNITS +
                     (warp_sets ? REFINE_UNITS * (1 + (ls_passes > 0)) : 0) + (uint64_t)ls_passes * SEARCH_PASS_UNITS;
    uint64_t best_cost = UINT64_MAX;
    gc_status s = GC_OK;
    /* The candidates, each made and scored on its own (candidate_job), on options->threads
     * workers; the winner is the cheapest, the first in candidate order among equals, as when
     * they are scored one after the other. */
    float greedy[sizeof weights / sizeof weights[0]][3];
    uint64_t seed = options->seed;
    for (size_t v = 0; v < greedy_variants; ++v) {
        /* the seed perturbs the weights, reproducibly */
        const size_t w = (v + first_weight) % weight_count;
        float beta = weights[w].beta, gamma = weights[w].gamma;
        if (seed) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            beta *= 0.75f + 0.5f * (float)((seed >> 40) & 0xFFFF) / 65535.0f;
            gamma *= 0.75f + 0.5f * (float)((seed >> 16) & 0xFFFF) / 65535.0f;
        }
        greedy[v][0] = beta, greedy[v][1] = gamma, greedy[v][2] = (float)weights[w].recent;
    }
    unsigned threads = options->threads ? options->threads : 1;
    threads = threads < GC_MAX_THREADS ? threads : GC_MAX_THREADS;
    const bool warp_piped = lone_warp && warp_sets && total == 1 && greedy_variants == 1 && refine_passes == 2 &&
                            options->threads > 1 && triangle_count >= GC_WARP_PIPE_MIN_TRIANGLES;
    const bool by_parts = gc_auto_parts_fit(&pipe, targets, patch_count ? patch_limits[0] : NULL, machine_at,
                                            triangle_count); /* (auto_parts.c: no candidates, no per-thread buffers) */
    threads = by_parts ? 1 : (size_t)threads < total ? threads : (total ? (unsigned)total : 1);
    candidate_worker workers[GC_MAX_THREADS];
    memset(workers, 0, sizeof workers);
    workers[0].candidate = candidate, workers[0].expanded = expanded, workers[0].best = order;
    workers[0].place = place, workers[0].best_cost = UINT64_MAX, workers[0].best_key = 0;
    for (unsigned k = 1; k < threads && !s; ++k) {
        candidate_worker* w = &workers[k];
        w->place = place;
        w->place.numbering = NULL;
        w->best_cost = UINT64_MAX;
        w->candidate = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
        w->best = gc_alloc_array(triangle_count, sizeof(uint32_t), false);
        w->expanded = gc_alloc_array(n, sizeof(uint32_t), false);
        if (place.numbering)
            w->place.numbering = gc_alloc_array(vertex_count ? vertex_count : 1, sizeof(uint32_t), false);
        if (!w->candidate || !w->best || !w->expanded || (place.numbering && !w->place.numbering))
            s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for thread %u's orders of %zu triangles", k + 1,
                        triangle_count);
    }
    bool have_reference = false, reference_known = false;
    uint64_t reference_each[MAX_TARGETS];
    candidate_jobs jobs = {indices, triangle_count, vertex_count, targets, target_count, traits, effort,
                           greedy_variants, tipsify_count, batch_at, forsyth_at, patch_count, skip_tuned, greedy,
                           tipsify_sizes, patch_limits, batch_targets, machine_at, machine_beta, machine_recent,
                           occlusion_at, options->positions, options->position_stride, &occlusion,
                           workers, &progress, 0, NULL, &have_reference, reference_each, &reference_known,
                           nv_batch_pair, flush_at, {0}, NULL, nv_batch_pair && pages_change, machine_part_from,
                           polish_at, &pipe};
    jobs.flush_rule = batch_rule;
    gc_order_race race; /* the flushed order and the batch greedy raced on a large list (order_race.h) */
    if (!s && flush_at != SIZE_MAX && !pages_change && batch_count == 1 && triangle_count >= GC_RACE_MIN_TRIANGLES &&
        !(s = gc_order_race_init(&race, triangle_count, err)))
        jobs.race = &race;
    s = s || by_parts ? s : gc_table_pipe_alloc(&pipe, triangle_count, err);
    /* several targets: meshoptimizer's order is kept for the balance below (auto_balance.c) */
    if (!s && target_count >= 2 && gc_balance_fits(triangle_count, target_count) &&
        !(jobs.reference = gc_alloc_array(2 * triangle_count, sizeof(uint32_t), false))) /* and the winner */
        s = gc_fail(err, GC_ERR_NOMEM, "auto: out of memory for an order of %zu triangles", triangle_count);
    const uint64_t units_before = progress.done;
    if (!s && by_parts) /* (the candidates' scratch, `expanded`, holds the parts' lists) */
        s = gc_auto_llvmpipe_parts(indices, triangle_count, vertex_count, targets, greedy[0], patch_limits[0], options,
                                   occlusion_job ? &occlusion : NULL, expanded, order, &best_cost, err);
    else if (!s && warp_piped) /* (the greedy alone, its swaps made beside it, auto_warps.h) */
        s = gc_auto_warp_greedy_refined(indices, triangle_count, vertex_count, targets, &place, greedy[0],
                                        options->threads, candidate, expanded, &best_cost, order, err);
    else if (!s)
        s = gc_parallel_run(threads, total, candidate_job, &jobs, candidate_units, err);
    if (jobs.race)
        gc_order_race_free(jobs.race);
    for (unsigned k = 0; k < threads; ++k) /* the parked orders where they are */
        if (workers[k].parked)
            memcpy(workers[k].best, workers[k].expanded, triangle_count * sizeof *order), workers[k].parked = false;
    /* the winner's count under each target, where its worker knows them (for the balance; false
     * once a step below changes the order) */
    bool winner_known = false;
    uint64_t winner_each[MAX_TARGETS];
    for (unsigned k = 0; k < threads && !s; ++k) {
        const candidate_worker* w = &workers[k];
        if (w->best_cost < best_cost || (w->best_cost == best_cost && w->best_key < workers[0].best_key)) {
            best_cost = w->best_cost;
            workers[0].best_key = w->best_key;
            winner_known = w->best_known;
            memcpy(winner_each, w->best_each, target_count * sizeof *winner_each);
            if (k)
                memcpy(order, w->best, triangle_count * sizeof *order);
        }
    }
    for (unsigned k = 1; k < threads; ++k) {
        free(workers[k].candidate);
        free(workers[k].best);
        free(workers[k].expanded);
        free(workers[k].place.numbering);
    }
    const uint64_t all_units = greedy_variants * GREEDY_UNITS + (total - greedy_variants) * OTHER_UNITS;
    if (!s && jobs.units_total != all_units) { /* the other workers' last ones */
        progress.done = units_before + jobs.units_total;
        progress_add(&progress, all_units - jobs.units_total);
    }
    /* The winner polished for each llvmpipe target's segments, if it was not a patch order. */
    for (size_t k = 0; k < patch_count && !s; ++k) {
        if (!patch_limits[k][3] || lean.no_winner_polish)
            continue;
        winner_known = false;
        memcpy(candidate, order, triangle_count * sizeof *order);
        s = gc_llvmpipe_polish_segments(indices, triangle_count, vertex_count, patch_limits[k], &place, effort, true,
                                        candidate, err);
        if (!s)
            s = keep_if_better(indices, triangle_count, vertex_count, candidate, expanded, targets, target_count,
                               &place, &best_cost, order, err);
    }
    /* Improvements of the winner, each kept only if the exact emulators agree that it is
     * better: for warp models whose cost is a sum over warps (gc_auto_warp_set_targets), swaps
     * between warps (warp_refine.c; two passes at the default effort, which took
     * nvidia-pascal alone from 0.8% to 3.0% below meshoptimizer at about 6 times its time);
     * with more effort, the local search over short windows, and the swaps again. */
    winner_known &= !warp_sets && !ls_passes; /* the steps below may change the order */
    if (!s && warp_sets) {
        /* (a lone target at the default effort: two passes between each warp and the next 3,
         * about 0.4 of the time of the passes between warps that share vertices, on the
         * corpus 2.84% below meshoptimizer after the greedy, where those gave 2.66%) */
        s = warp_piped ? s /* (done) */
                       : gc_auto_refine_warps(indices, triangle_count, vertex_count, targets, target_count, &place,
                                              refine_passes, lone_warp ? GC_WARP_REFINE_NEXT(3) : 0, options->threads,
                                              candidate, expanded, &best_cost, order, err);
        progress_add(&progress, REFINE_UNITS);
    }
    if (!s && ls_passes) {
        memcpy(candidate, order, triangle_count * sizeof *order);
        s = gc_opt_window_search(indices, candidate, triangle_count, vertex_count, targets, target_count, &place,
                                 ls_passes, progress_ticks, &progress, err);
        if (!s)
            s = keep_if_better(indices, triangle_count, vertex_count, candidate, expanded, targets, target_count,
                               &place, &best_cost, order, err);
        if (!s && warp_sets) {
            s = gc_auto_refine_warps(indices, triangle_count, vertex_count, targets, target_count, &place,
                                     refine_passes, 0, 1, candidate, expanded, &best_cost, order, err);
            progress_add(&progress, REFINE_UNITS);
        }
    }
    if (!s && !have_reference) /* several targets: the balance below weighs meshoptimizer's order */
        s = gc_auto_no_harm(indices, triangle_count, vertex_count, targets, target_count, placement, options->effort,
                            expanded, order, err);
    budget_costs b = {indices, triangle_count, vertex_count, targets, target_count, &place,
                      expanded, NULL,    NULL,           threshold, {0},     false,        false};
    uint64_t cap[MAX_TARGETS]; /* the winner below meshoptimizer's order on every target, the pass capped */
    bool balanced = false;
    uint32_t* winner = jobs.reference ? jobs.reference + triangle_count : NULL;
    if (!s && have_reference)
        s = gc_opt_balance_auto_known(indices, triangle_count, vertex_count, traits, target_count, jobs.reference,
                                      reference_known ? reference_each : NULL, winner_known ? winner_each : NULL,
                                      one_target_cost, &b, order, winner, cap, &balanced, err);
    if (!s && balanced) { /* the balanced order (the reference's copy is free now) and its costs */
        memcpy(jobs.reference, order, triangle_count * sizeof *order), b.start = jobs.reference;
        s = target_costs(&b, order, b.first, err);
        b.cap = cap;
    }
    /* Overdraw (overdraw_graph.c), within T and the cap (where no rung fits under it: the winner, uncapped) */
    if (!s && options->positions && threshold > 1 && !occlusion_job)
        gc_occlusion_ahead_run(&occlusion, indices, triangle_count, vertex_count, options->positions,
                               options->position_stride);
    for (int pass = 0; pass < 2 && !s && options->positions && threshold > 1; ++pass) {
        s = gc_opt_overdraw_budget_occlusion(indices, triangle_count, vertex_count, options->positions,
                                             options->position_stride, options->cache_size, threshold, target_count,
                                             target_costs, &b, placement->first_use_numbering != 0, &occlusion,
                                             order, candidate, err);
        if (!b.cap || b.fit || !b.tried) /* not capped, a rung fitted, or nothing was tried */
            break;
        memcpy(order, winner, triangle_count * sizeof *order), b.cap = NULL;
    }
    gc_occlusion_free(&occlusion.pairs);
    free(pipe.order);
    free(jobs.reference);
    free(candidate);
    free(place.numbering);
    return s;
}
