/* The par kernel (native/parkernel.c): the cdef of what ddsbind.optimum binds.
   No #include here: cffi's cdef reads this file too; the C side includes <stdint.h> first.

   tables: n double-dummy tables, int8 [n][5][4], DDS order (strains S H D C NT, declarers N E S W).
   Each par contract is 8 int8 (PAR_FIELDS): level 1..7, strain (DDS order), seats (0..3 one
   player N E S W, 4 NS, 5 EW), result (+overtricks / -undertricks), starred (DealerPar's text
   has "*"), and the contract it saves against when it is a sacrifice (level, strain, seats;
   level 0 otherwise).  Up to 10 contracts a result (PAR_SLOTS), as DDS's structs hold.
   number, contracts and sacrifice (dealer par: 1 when its contracts go down) may be NULL. */

int ddsbind_dealer_par(const int8_t *tables, int64_t n, const int8_t *dealer, const int8_t *vulnerable,
                       int32_t *score, int8_t *number, int8_t *contracts, int8_t *sacrifice);
int ddsbind_sides_par(const int8_t *tables, int64_t n, const int8_t *vulnerable,
                      int32_t *score, int8_t *number, int8_t *contracts);
