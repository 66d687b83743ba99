/* selftest_target.c: a fuzz target with planted faults, for the test of
 * fuzz_driver itself (test_driver.py): an input that starts with "abort"
 * aborts, "segv" writes through a null pointer, "hang" never returns,
 * "overflow" overflows a signed int (a UBSan report when built with it), and one
 * that contains "offer_kill();" anywhere aborts (so mutation must insert that
 * dictionary token to find it). Every other input returns at once. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int starts(const uint8_t *data, size_t size, const char *word)
{
    return size >= strlen(word) && memcmp(data, word, strlen(word)) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char token[] = "offer_kill();";
    if (starts(data, size, "abort"))
        abort();
    if (starts(data, size, "segv")) {
        volatile int *volatile p = NULL;
        *p = 1;
    }
    if (starts(data, size, "overflow")) {
        volatile int big = 2147483647;
        big = big + (int)size;
    }
    if (starts(data, size, "hang"))
        for (volatile unsigned long i = 0;; ++i) {
        }
    for (size_t i = 0; i + sizeof token - 1 <= size; ++i)
        if (memcmp(data + i, token, sizeof token - 1) == 0)
            raise(SIGABRT);
    return 0;
}
