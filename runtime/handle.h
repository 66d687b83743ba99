/* Handle validation: the process-wide registry of live handles (contexts,
 * launches, devices) and the quarantine that keeps released handle memory
 * from being reused at once.
 *
 * Why a registry and not only a magic word: a released handle's memory may
 * have been freed, and reading it to look at its magic word would itself be a
 * use-after-free. So every public function first asks the registry whether
 * the pointer is a live handle of the expected kind; the registry compares
 * pointer values only and never dereferences them. Only then is the struct
 * read, and its magic word is checked as a second line of defence (a wrong
 * kind or a corrupted struct).
 *
 * Why a quarantine: without it, a released launch's memory could be handed to
 * the next launch at the same address, and a stale pointer would then pass as
 * the new launch. Released handle memory is poisoned (its magic word set to
 * CK_MAGIC_DEAD) and kept in a FIFO of CK_QUARANTINE entries; only the oldest
 * entry is freed when the FIFO is full. A stale pointer therefore fails the
 * registry check for at least CK_QUARANTINE later releases, and is reported as
 * "already released" while it is among the last 2 * CK_QUARANTINE releases
 * (after that: "not a live handle"). */
#ifndef CK_RUNTIME_HANDLE_H
#define CK_RUNTIME_HANDLE_H

#include "ck.h"

#include <stdint.h>

typedef enum { CK_HANDLE_CONTEXT = 1, CK_HANDLE_LAUNCH, CK_HANDLE_DEVICE } ck_handle_kind;

#define CK_MAGIC_CONTEXT 0x43544b43u /* "CKTC" */
#define CK_MAGIC_LAUNCH 0x4e4c4b43u  /* "CKLN" */
#define CK_MAGIC_DEVICE 0x56444b43u  /* "CKDV" */
#define CK_MAGIC_DEAD 0xdeadc0deu
#define CK_QUARANTINE 64

/* Records p as a live handle of kind k. Errors: CK_ERR_NO_MEMORY. */
ck_status ck_handle_register(const void *p, ck_handle_kind k);
/* Removes p from the live set. Returns 1 if it was live with kind k, else 0
 * (and changes nothing). Atomic: of two threads releasing the same handle,
 * exactly one gets 1. */
int ck_handle_unregister(const void *p, ck_handle_kind k);
/* 1 if p is a live handle of kind k. Never reads *p. */
int ck_handle_is_live(const void *p, ck_handle_kind k);
/* CK_OK if p is a live handle of kind k; otherwise CK_ERR_INVALID_ARGUMENT
 * with "<fn>: <what> ... was already released / is not a live ..." (NULL
 * included). Never reads *p. */
ck_status ck_handle_check(const void *p, ck_handle_kind k, const char *fn);
/* The registry's lock, for callers that must look at a handle and act on
 * it before it can be unregistered (pinning a context for the length of a
 * call: context_handle.c). The _locked forms are ck_handle_is_live and
 * ck_handle_unregister with the lock held. */
void ck_handle_lock(void);
void ck_handle_unlock(void);
int ck_handle_is_live_locked(const void *p, ck_handle_kind k);
int ck_handle_unregister_locked(const void *p, ck_handle_kind k);
/* Hands the memory of a handle that is no longer registered to the
 * quarantine: *magic is set to CK_MAGIC_DEAD, and the memory is freed later
 * (see above). NULL is allowed. Cannot fail. */
void ck_handle_retire(void *p, uint32_t *magic, ck_handle_kind k);

#endif
