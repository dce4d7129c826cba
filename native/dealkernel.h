/* The dealing kernel (native/dealkernel.c): the cdef of what ddsbind.dealer.kernel binds.
   No #include here: cffi's cdef reads this file too; the C side includes <stdint.h> first. */

void ddsbind_philox_blocks(const uint64_t key[2], const uint64_t ctr[4], int64_t blocks, uint64_t *out);
int ddsbind_deal_shuffle(const uint64_t key[2], uint64_t first, int64_t count, const int8_t *base,
                         const uint8_t *cards, const int8_t *slots, int m, int8_t *out, int8_t *lengths,
                         int16_t *hcp, int16_t *controls, int8_t *losers);
