/* clean_unshare.c - the pass `unshare': a small block that a few places
 * reach is written in each of them, where the form then nests less
 * deeply.
 *
 * The main code of a dispatch (clean_blocks.c) is a binding of its
 * let*, three lists below it, where Emacs's expansion has its main code
 * one list below a let* of lambdas.  A block of at most UNSHARE_MAX
 * conses that two to UNSHARE_PLACES places reach (what is left after
 * known, merge and hoist took out the others) goes to each place, as
 * blocks moves one that one place reaches: its code runs there instead
 * of after the main code has returned, with nothing observable between
 * (the places are in tail position; clean_block_place_ok keeps those
 * under a binding the block could see, in a lambda or a loop).  With no
 * block left the dispatch goes.  The driver keeps the pass's work only
 * for a form that then nests less deeply: the code written again is
 * worth it for the depth alone (the emitter shares a body of SHARE_BODY
 * conses or more because copies make the byte code larger).
 */
#include "match/clean_int.h"

/* Conses of a block written again, at most. */
#define UNSHARE_MAX 40

/* Places of a block written again, at most. */
#define UNSHARE_PLACES 4

/* Block b of dispatch d (the let* at *slot), number key, in each of its
 * places when it is small and they are few; false when it stays. */
static bool spread(struct clean *c, struct value **slot, struct clean_dispatch *d,
                   struct value *b, const struct value *key)
{
    size_t n;
    struct value ***at = clean_block_places(c, slot, d, key, &n);
    if (n < 2 || n > UNSHARE_PLACES || clean_size_upto(c, b, UNSHARE_MAX) > UNSHARE_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!clean_block_place_ok(c, *slot, at[i], b))
            return false;
    struct value *code[UNSHARE_PLACES];
    for (size_t i = 0; i + 1 < n; i++)
        if (!(code[i] = clean_copy(c, b)))
            return false; /* too deep to copy: nothing changed */
    code[n - 1] = b;
    for (size_t i = 0; i < n; i++)
        *at[i] = clean_block_arrive(c, *at[i], code[i]);
    return true;
}

static void at(struct clean *c, struct value **slot)
{
    struct clean_dispatch d;
    if (!clean_dispatch_of(c, *slot, &d))
        return;
    bool moved = false;
    for (struct value **l = d.first; (*l)->kind == VK_CONS;) {
        const struct value *key;
        struct value **b = clean_block_of(c, &d, clean_car(*l), &key);
        if (b && spread(c, slot, &d, *b, key)) {
            clean_block_remove(c, &d, l);
            moved = true;
            continue;
        }
        l = &(*l)->u.cons.cdr;
    }
    if (moved)
        clean_block_unwrap(c, slot, &d);
}

void clean_unshare(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
