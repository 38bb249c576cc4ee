// SPDX-License-Identifier: MIT
/* The checked number parsers (gc_parse_u64, gc_parse_i64, gc_parse_double): every value
 * below is worked out by hand, the wrap-arounds of issue 14 included. */
#include "test_util.h"

#include <math.h>

static gc_parse_result u64(const char* t, unsigned flags, uint64_t lo, uint64_t hi, uint64_t* v)
{
    return gc_parse_u64(t, strlen(t), flags, lo, hi, v);
}

static void unsigned_numbers(void** state)
{
    (void)state;
    uint64_t v = 0;
    assert_int_equal(u64("18446744073709551615", 0, 0, UINT64_MAX, &v), GC_PARSE_OK);
    assert_true(v == UINT64_MAX);
    /* 2^64 and 2^64 + 3: the old digit loop made the second one 3 */
    assert_int_equal(u64("18446744073709551616", 0, 0, UINT64_MAX, &v), GC_PARSE_RANGE);
    assert_int_equal(u64("18446744073709551619", 0, 0, UINT64_MAX, &v), GC_PARSE_RANGE);
    assert_int_equal(u64("99999999999999999999999999x", 0, 0, UINT64_MAX, &v), GC_PARSE_SYNTAX);
    /* 4294967300 = 2^32 + 4: sscanf("%u") made it 4 */
    assert_int_equal(u64("4294967300", 0, 0, UINT32_MAX, &v), GC_PARSE_RANGE);
    assert_int_equal(u64("4294967295", 0, 0, UINT32_MAX, &v), GC_PARSE_OK);
    assert_true(v == 4294967295u);
    /* suffixes: 17592186044417 = 2^44 + 1, times 2^20 is 2^64 + 2^20 (the old 1 MiB) */
    assert_int_equal(u64("17592186044417M", GC_PARSE_SUFFIX, 0, UINT64_MAX, &v), GC_PARSE_RANGE);
    assert_int_equal(u64("17592186044415M", GC_PARSE_SUFFIX, 0, UINT64_MAX, &v), GC_PARSE_OK);
    assert_true(v == (((uint64_t)1 << 44) - 1) << 20);
    assert_int_equal(u64("16384M", GC_PARSE_SUFFIX, 0, UINT64_MAX, &v), GC_PARSE_OK);
    assert_true(v == (uint64_t)16384 * 1048576);
    assert_int_equal(u64("4k", GC_PARSE_SUFFIX, 0, UINT64_MAX, &v), GC_PARSE_OK);
    assert_true(v == 4096);
    assert_int_equal(u64("2G", GC_PARSE_SUFFIX, 0, UINT64_MAX, &v), GC_PARSE_OK);
    assert_true(v == (uint64_t)2 << 30);
    assert_int_equal(u64("4K", 0, 0, UINT64_MAX, &v), GC_PARSE_SYNTAX); /* no suffix unless asked */
    assert_int_equal(u64("K", GC_PARSE_SUFFIX, 0, UINT64_MAX, &v), GC_PARSE_SYNTAX);
    assert_int_equal(u64("1KK", GC_PARSE_SUFFIX, 0, UINT64_MAX, &v), GC_PARSE_SYNTAX);
    /* the range is checked after the suffix */
    assert_int_equal(u64("2K", GC_PARSE_SUFFIX, 1, 2047, &v), GC_PARSE_RANGE);
    /* fractions and the rest */
    assert_int_equal(u64("2.5", 0, 0, 100, &v), GC_PARSE_NOT_INTEGER);
    assert_int_equal(u64("1e3", 0, 0, 10000, &v), GC_PARSE_NOT_INTEGER);
    assert_int_equal(u64("1.5K", GC_PARSE_SUFFIX, 0, UINT64_MAX, &v), GC_PARSE_NOT_INTEGER);
    assert_int_equal(u64("", 0, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(u64(" 1", 0, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(u64("1 ", 0, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(u64("+1", 0, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(u64("-1", 0, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(u64("0x10", 0, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(u64("0x10", GC_PARSE_HEX, 0, 100, &v), GC_PARSE_OK);
    assert_true(v == 16);
    assert_int_equal(u64("0xFFFFFFFFFFFFFFFF", GC_PARSE_HEX, 0, UINT64_MAX, &v), GC_PARSE_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(u64("0x10000000000000000", GC_PARSE_HEX, 0, UINT64_MAX, &v), GC_PARSE_RANGE);
    assert_int_equal(u64("010", GC_PARSE_HEX, 0, 100, &v), GC_PARSE_OK);
    assert_true(v == 10); /* decimal, not octal */
    /* a length shorter than the string: only that part is read */
    assert_int_equal(gc_parse_u64("12x", 2, 0, 0, 100, &v), GC_PARSE_OK);
    assert_true(v == 12);
    assert_int_equal(gc_parse_u64(NULL, 0, 0, 0, 100, &v), GC_PARSE_SYNTAX);
}

static void signed_numbers(void** state)
{
    (void)state;
    int64_t v = 0;
    assert_int_equal(gc_parse_i64("-9223372036854775808", 20, INT64_MIN, INT64_MAX, &v), GC_PARSE_OK);
    assert_true(v == INT64_MIN);
    assert_int_equal(gc_parse_i64("-9223372036854775809", 20, INT64_MIN, INT64_MAX, &v), GC_PARSE_RANGE);
    assert_int_equal(gc_parse_i64("9223372036854775807", 19, INT64_MIN, INT64_MAX, &v), GC_PARSE_OK);
    assert_true(v == INT64_MAX);
    assert_int_equal(gc_parse_i64("9223372036854775808", 19, INT64_MIN, INT64_MAX, &v), GC_PARSE_RANGE);
    assert_int_equal(gc_parse_i64("-3", 2, -5, 5, &v), GC_PARSE_OK);
    assert_true(v == -3);
    assert_int_equal(gc_parse_i64("-6", 2, -5, 5, &v), GC_PARSE_RANGE);
    assert_int_equal(gc_parse_i64("-", 1, -5, 5, &v), GC_PARSE_SYNTAX);
    assert_int_equal(gc_parse_i64("--1", 3, -5, 5, &v), GC_PARSE_SYNTAX);
    assert_int_equal(gc_parse_i64("-2.5", 4, -5, 5, &v), GC_PARSE_NOT_INTEGER);
}

static void decimals(void** state)
{
    (void)state;
    double v = 0;
    assert_int_equal(gc_parse_double("2.5", 3, 0, 10, &v), GC_PARSE_OK);
    assert_true(v == 2.5);
    assert_int_equal(gc_parse_double("1e6", 3, 0, 1e6, &v), GC_PARSE_OK);
    assert_true(v == 1e6);
    assert_int_equal(gc_parse_double(".5", 2, 0, 1, &v), GC_PARSE_OK);
    assert_true(v == 0.5);
    assert_int_equal(gc_parse_double("-0.5", 4, 0, 1, &v), GC_PARSE_RANGE);
    assert_int_equal(gc_parse_double("1e999", 5, 0, HUGE_VAL, &v), GC_PARSE_RANGE);
    assert_int_equal(gc_parse_double("nan", 3, 0, 10, &v), GC_PARSE_SYNTAX);
    assert_int_equal(gc_parse_double("inf", 3, 0, HUGE_VAL, &v), GC_PARSE_SYNTAX);
    assert_int_equal(gc_parse_double("0x1p3", 5, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(gc_parse_double(" 1", 2, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(gc_parse_double(".", 1, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_int_equal(gc_parse_double("1e", 2, 0, 100, &v), GC_PARSE_SYNTAX);
    assert_string_equal(gc_parse_result_text(GC_PARSE_NOT_INTEGER), "is not a whole number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unsigned_numbers),
        cmocka_unit_test(signed_numbers),
        cmocka_unit_test(decimals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
