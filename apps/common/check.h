/* apps/common/check.h: result checking helpers shared by the applications:
 * element-wise comparison of int arrays with a message naming the first
 * differences. */
#ifndef APPS_CHECK_H
#define APPS_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Compares got against want (n entries). Returns the number of differing
 * entries (0: equal) and, if msg is given, writes a one-line description of
 * the first few differences naming `what` ("level of node 17: got 3,
 * expected 2; ..."). */
size_t app_check_i32(const char *what, const int32_t *got, const int32_t *want, size_t n, char *msg, size_t msg_len);

#endif
