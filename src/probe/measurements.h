/* Reading the measurement files of `probe --suite` (JSON, through jansson) into the
 * cases gc_fit takes. */
#ifndef GPUCACHE_MEASUREMENTS_H
#define GPUCACHE_MEASUREMENTS_H

#include "gpucache/gpucache.h"

#include <jansson.h>
#include <stddef.h>

typedef struct fit_input {
    json_t* root;
    gc_fit_case* cases;
    const char** names;
    uint32_t** buffers; /* indices, values, counts per case, owned */
    size_t count;
} fit_input;

/* Loads and validates a measurement file; prints one line and returns an exit status on
 * failure (0 on success). Free with fit_input_free either way. */
int load_measurements(const char* path, fit_input* in);
void fit_input_free(fit_input* in);

#endif
