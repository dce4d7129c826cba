/* ddsbind's dealing kernel: generator "philox-shuffle", version 1.

   Deal d (0, 1, 2, ... over a whole run) of seed S:

   * Random words: Philox4x64-10 keyed by S (key word 0 = low 64 bits of S,
     word 1 = high 64 bits) over the counters (j, d, 0, 2) for j = 0, 1, 2...,
     each block's four 64-bit words read in order.  The counter's last word 2
     keeps these blocks apart from the database recipe's (last word 0) and
     from generator "philox-sort" (last word 1).
   * The m free cards (not predealt, ascending) receive the multiset of free
     slots (13 - predealt seats of N, then E, S, W) shuffled by Fisher-Yates
     (ddsbind_shuffle below: which draws share a word, and the rejection
     rule); free card k gets slot k's seat.
   * So every completion of the predeal is equally likely, and deal d depends
     on (S, d, predeal) alone: not on batch sizes or threads.

   Bumping the version means changing what a (seed, d, predeal) deals.

   Written for ddsbind from the published descriptions of Philox (Salmon et
   al., SC'11), of bounded random integers (Lemire, 2019) and of drawing
   several from one word (Brackett-Rozinsky and Lemire, 2024). */

#include <stdint.h>
#include <string.h>

#define DDSBIND_PHILOX_M0 0xD2E7470EE14C6C93ULL
#define DDSBIND_PHILOX_M1 0xCA5A826395121157ULL
#define DDSBIND_PHILOX_W0 0x9E3779B97F4A7C15ULL
#define DDSBIND_PHILOX_W1 0xBB67AE8584CAA73BULL

static inline void ddsbind_mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
  unsigned __int128 p = (unsigned __int128) a * b;
  *hi = (uint64_t) (p >> 64);
  *lo = (uint64_t) p;
#else
  /* Compilers without a 128-bit type: four 32-bit products. */
  uint64_t a0 = (uint32_t) a, a1 = a >> 32, b0 = (uint32_t) b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t middle = (p00 >> 32) + (uint32_t) p01 + (uint32_t) p10;
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
  *lo = (middle << 32) | (uint32_t) p00;
#endif
}

/* One Philox4x64-10 block: ctr[4] and key[2] in, out[4] out. */
static inline void ddsbind_philox4x64(const uint64_t ctr[4], const uint64_t key[2], uint64_t out[4])
{
  uint64_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
  uint64_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; round++) {
    uint64_t hi0, lo0, hi1, lo1;
    if (round) {
      k0 += DDSBIND_PHILOX_W0;
      k1 += DDSBIND_PHILOX_W1;
    }
    ddsbind_mul128(DDSBIND_PHILOX_M0, c0, &hi0, &lo0);
    ddsbind_mul128(DDSBIND_PHILOX_M1, c2, &hi1, &lo1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* The 64-bit words of one deal, produced a block (four words) at a time. */
struct ddsbind_stream {
  uint64_t ctr[4];
  uint64_t key[2];
  uint64_t words[4];
  int next;
};

static inline uint64_t ddsbind_next64(struct ddsbind_stream *s)
{
  if (s->next == 4) {
    ddsbind_philox4x64(s->ctr, s->key, s->words);
    s->ctr[0]++;
    s->next = 0;
  }
  return s->words[s->next++];
}

/* Fisher-Yates over a[0..m-1]: for i = m-1 down to 1, a[i] exchanged with a[j], j uniform in 0..i.

   The draws come in groups: consecutive bounds n = i+1 whose product P stays at or
   below 2**48 share one 64-bit word r.  With x = r, each bound n in turn splits
   x * n into a high word (the draw, 0..n-1) and a low word (the next x).  The draws
   are the digits of floor(r * P / 2**64) in the mixed radix of the bounds and the
   last low word is r * P mod 2**64, so rejecting the word (and drawing the group
   again from the next one) when that low word is below 2**64 mod P makes every
   group exactly uniform: Lemire's method for the bound P.  The groups are
   formed from m-1 down: a group takes the next bound while the product stays
   at or below 2**48 (ddsbind_plan). */
struct ddsbind_groups {
  int count;
  int first[52];        /* the group's first i (its largest bound is first + 1) */
  int last[52];         /* the i that ends it (exclusive) */
  uint64_t product[52]; /* P, the product of its bounds */
  uint64_t reject[52];  /* 2**64 mod P: a low word below it is rejected */
};

/* The groups of bounds m, m-1, ..., 2: the same for every deal with m free cards. */
static void ddsbind_plan(int m, struct ddsbind_groups *g)
{
  g->count = 0;
  int i = m - 1;
  while (i > 0) {
    uint64_t product = (uint64_t) i + 1;
    int last = i - 1;
    while (last > 0 && product * (uint64_t) (last + 1) <= (1ULL << 48)) {
      product *= (uint64_t) (last + 1);
      last--;
    }
    g->first[g->count] = i;
    g->last[g->count] = last;
    g->product[g->count] = product;
    g->reject[g->count] = (0 - product) % product;
    g->count++;
    i = last;
  }
}

static inline void ddsbind_shuffle(int8_t *a, const struct ddsbind_groups *g, struct ddsbind_stream *s)
{
  for (int group = 0; group < g->count; group++) {
    int first = g->first[group], last = g->last[group];
    uint8_t draws[52];
    for (;;) {
      uint64_t x = ddsbind_next64(s), hi;
      for (int k = first; k > last; k--) {
        ddsbind_mul128(x, (uint64_t) k + 1, &hi, &x);
        draws[k] = (uint8_t) hi;
      }
      if (x >= g->reject[group])
        break;
    }
    for (int k = first; k > last; k--) {
      int j = draws[k];
      int8_t t = a[k];
      a[k] = a[j];
      a[j] = t;
    }
  }
}

/* Philox4x64-10 blocks for counters ctr, ctr+1, ... (counter word 0 counting): the known-answer check. */
void ddsbind_philox_blocks(const uint64_t key[2], const uint64_t ctr[4], int64_t blocks, uint64_t *out)
{
  uint64_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
  for (int64_t b = 0; b < blocks; b++) {
    ddsbind_philox4x64(c, key, out + 4 * b);
    c[0]++;
  }
}

/* A deal's suit lengths, high-card points, controls and losers, [seat][suit] each, from its owner row.

   Each suit is summed in one 64-bit word holding a 16-bit field per seat: a
   card adds to its owner's field 1 (length, bits 0-3), its points A=4 K=3
   Q=2 J=1 (bits 4-7), its controls A=2 K=1 (bits 8-9), and a bit for the
   ace, king, queen (bits 10, 11, 12).  No field can overflow: at most 13
   cards, 10 points, 3 controls.  Losers are dealer's: min(length, 3) less
   the ace, the king when the suit has 2 cards or more, the queen when 3. */
#define DDSBIND_CARD(points, controls, honour) (1 | ((points) << 4) | ((controls) << 8) | (honour))

/* Losers of a suit by (length | ace << 4 | king << 5 | queen << 6): a table, so no branch per suit. */
static void ddsbind_loser_table(int8_t table[128])
{
  for (int index = 0; index < 128; index++) {
    int length = index & 15, cap = length < 3 ? length : 3;
    int ace = (index >> 4) & 1, king = (index >> 5) & 1, queen = (index >> 6) & 1;
    table[index] = (int8_t) (cap - ace - (cap >= 2 ? king : 0) - (cap >= 3 ? queen : 0));
  }
}

static inline void ddsbind_count(const int8_t *row, const int8_t *loser_table, int8_t *lengths, int16_t *hcp,
                                 int16_t *controls, int8_t *losers)
{
  static const uint64_t add[13] = {
      DDSBIND_CARD(4, 2, 1 << 10), DDSBIND_CARD(3, 1, 1 << 11), DDSBIND_CARD(2, 0, 1 << 12), DDSBIND_CARD(1, 0, 0),
      1, 1, 1, 1, 1, 1, 1, 1, 1};
  for (int suit = 0; suit < 4; suit++) {
    uint64_t sum = 0;
    const int8_t *cards = row + 13 * suit;
    for (int rank = 0; rank < 13; rank++)
      sum += add[rank] << (16 * cards[rank]);
    for (int seat = 0; seat < 4; seat++) {
      unsigned field = (unsigned) (sum >> (16 * seat)) & 0xFFFF;
      lengths[4 * seat + suit] = (int8_t) (field & 15);
      hcp[4 * seat + suit] = (int16_t) ((field >> 4) & 15);
      controls[4 * seat + suit] = (int16_t) ((field >> 8) & 3);
      losers[4 * seat + suit] = loser_table[(field & 15) | ((field >> 6) & 0x70)];
    }
  }
}

/* Deals first .. first+count-1 of seed key into out (count rows of 52 int8 owners, DDS seats).

   base:  the 52 owners of the predeal, -1 for a free card;
   cards: the m free cards, ascending;
   slots: the m seats of the free slots, in seat order;
   lengths, hcp, controls, losers: all NULL, or count * 16 places each for
   every deal's suit lengths, high-card points, controls and losers
   [deal][seat N E S W][suit S H D C], counted in the same pass.
   Returns 0, or -1 when m is outside 0..52. */
int ddsbind_deal_shuffle(const uint64_t key[2], uint64_t first, int64_t count, const int8_t *base,
                         const uint8_t *cards, const int8_t *slots, int m, int8_t *out, int8_t *lengths,
                         int16_t *hcp, int16_t *controls, int8_t *losers)
{
  if (m < 0 || m > 52)
    return -1;
  struct ddsbind_stream s;
  memcpy(s.key, key, sizeof s.key);
  int8_t deck[52];
  struct ddsbind_groups groups;
  ddsbind_plan(m, &groups);
  int8_t loser_table[128];
  ddsbind_loser_table(loser_table);
  for (int64_t row = 0; row < count; row++) {
    int8_t *dest = out + 52 * row;
    s.ctr[0] = 0;
    s.ctr[1] = first + (uint64_t) row;
    s.ctr[2] = 0;
    s.ctr[3] = 2;
    s.next = 4;
    if (m == 52) {
      /* No predeal: shuffle the slots in the row itself. */
      memcpy(dest, slots, 52);
      ddsbind_shuffle(dest, &groups, &s);
    } else {
      memcpy(dest, base, 52);
      memcpy(deck, slots, (size_t) m);
      ddsbind_shuffle(deck, &groups, &s);
      for (int k = 0; k < m; k++)
        dest[cards[k]] = deck[k];
    }
    if (lengths != NULL && hcp != NULL && controls != NULL && losers != NULL)
      ddsbind_count(dest, loser_table, lengths + 16 * row, hcp + 16 * row, controls + 16 * row, losers + 16 * row);
  }
  return 0;
}
