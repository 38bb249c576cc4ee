// SPDX-License-Identifier: MIT
/* Jobs on threads (issue 33): auto's candidate orders, each scored on its own, shared
 * among `threads` workers (pthreads), the calling thread one of them. Workers take the next
 * job number from a shared counter, so each worker meets its jobs in increasing order; the
 * caller combines the workers' results by job number, which makes the result the same for
 * every thread count. The first failure by job number is the one reported. */
#include "optimize.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct pool {
    gc_job_fn fn;
    gc_units_fn report; /* called by the calling thread with the units done so far */
    void* user;
    size_t jobs;
    pthread_mutex_t lock;
    size_t next;        /* the next job to hand out */
    size_t failed_job;  /* the lowest job that failed (jobs: none) */
    gc_error error;     /* its message */
    uint64_t progress;  /* work units done, summed over the workers (under lock) */
} pool;

typedef struct worker_arg {
    pool* p;
    unsigned worker;
} worker_arg;

static void work(pool* p, unsigned worker)
{
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t job = p->next < p->failed_job ? p->next++ : p->jobs;
        pthread_mutex_unlock(&p->lock);
        if (job >= p->jobs)
            return;
        gc_error err;
        memset(&err, 0, sizeof err);
        uint64_t units = 0;
        gc_status s = p->fn(p->user, job, worker, &units, &err);
        pthread_mutex_lock(&p->lock);
        p->progress += units;
        if (s && job < p->failed_job) {
            p->failed_job = job;
            p->error = err;
            p->error.code = s;
        }
        uint64_t done = p->progress;
        pthread_mutex_unlock(&p->lock);
        if (worker == 0 && p->report)
            p->report(p->user, done);
    }
}

static void* thread_main(void* arg)
{
    worker_arg* a = arg;
    work(a->p, a->worker);
    return NULL;
}

gc_status gc_parallel_run(unsigned threads, size_t jobs, gc_job_fn fn, void* user, gc_units_fn report,
                          gc_error* err)
{
    if (threads < 1)
        threads = 1;
    if (threads > GC_MAX_THREADS)
        threads = GC_MAX_THREADS;
    if ((size_t)threads > jobs)
        threads = jobs ? (unsigned)jobs : 1;
    pool p;
    memset(&p, 0, sizeof p);
    p.fn = fn, p.report = report, p.user = user, p.jobs = jobs, p.failed_job = jobs;
    if (pthread_mutex_init(&p.lock, NULL))
        return gc_fail(err, GC_ERR_NOMEM, "auto: could not create a lock for its threads");
    pthread_t ids[GC_MAX_THREADS];
    worker_arg args[GC_MAX_THREADS];
    unsigned started = 0;
    for (unsigned w = 1; w < threads; ++w) {
        args[w] = (worker_arg){&p, w};
        if (pthread_create(&ids[w], NULL, thread_main, &args[w]))
            break; /* fewer workers: the same result, later */
        started = w;
    }
    work(&p, 0);
    for (unsigned w = 1; w <= started; ++w)
        pthread_join(ids[w], NULL);
    pthread_mutex_destroy(&p.lock);
    if (p.failed_job < jobs) {
        if (err)
            *err = p.error;
        return p.error.code;
    }
    return GC_OK;
}
