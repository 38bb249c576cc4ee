// SPDX-License-Identifier: MIT
/* PLY (ply.c reads, ply_write.c rewrites), the private interface of the two:
 *
 * PLY, ASCII and binary (little or big endian): a "face" element (lists named
 * vertex_indices or vertex_index, triangulated as fans in file order) gives a
 * triangle list; a "tristrips" element (lists with -1 restarts, as Stanford's
 * igea.ply) gives a triangle strip with restarts. Nothing is allocated from a
 * header's counts: a header that lies runs into the end of the file instead.
 *
 * The loader (gc_load_ply) and the rewriter (gc_rewrite_ply) read the header through
 * the same parse_header: the rewriter writes the header back from what that parser
 * understood (never from the raw text), so the two cannot disagree about a file: what
 * one refuses the other refuses, and a header the loader reads one way is never
 * copied out meaning something else. */
#ifndef GC_PLY_INTERNAL_H
#define GC_PLY_INTERNAL_H

#include "io.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_ELEMENTS 16
#define MAX_PROPERTIES 64
#define MAX_LIST 1000000u
#define HEADER_LINE 4096 /* bytes in one header line, its end included */
#define MAX_WORDS 5      /* the most words a header line other than a comment has */
#define WORD_SIZE 64     /* a name or type: at most WORD_SIZE - 1 bytes */

typedef enum ply_type { T_NONE, T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_F32, T_F64 } ply_type;

typedef struct ply_property {
    char name[WORD_SIZE];
    ply_type type;       /* scalar type, or the item type of a list */
    ply_type count_type; /* T_NONE for a scalar */
} ply_property;

typedef struct ply_element {
    char name[WORD_SIZE];
    uint64_t count;
    ply_property props[MAX_PROPERTIES];
    int prop_count;
} ply_element;

typedef enum ply_format { F_ASCII, F_LE, F_BE } ply_format;

typedef struct ply_parser {
    gc_reader r;
    const char* path;
    ply_format format;
    ply_element elements[MAX_ELEMENTS];
    int element_count;
    int vertex_element; /* index of the one "vertex" element, -1 before it is seen */
    int face_element;   /* index of the one "face" or "tristrips" element, or -1 */
    bool strips;        /* the face element is "tristrips" */
    uint64_t header_end; /* byte offset of the first data byte */
    /* Where the last value read began, for messages: a line (ASCII) or a byte offset. */
    uint64_t value_line, value_offset;
    char token[128];
} ply_parser;

size_t ply_type_size(ply_type t);
gc_status ply_parse_header(ply_parser* p, FILE* echo, uint64_t echo_faces, gc_error* err);
gc_status ply_read_value(ply_parser* p, ply_type t, const char* where, double* out, gc_error* err);
gc_status ply_list_length(ply_parser* p, const ply_property* prop, const char* where, uint32_t* out, gc_error* err);

#endif
