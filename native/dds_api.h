/* The part of DDS 2.9's dll.h that ddsbind binds: a hand-kept cdef for cffi.
 *
 * Written for ddsbind from the DDS DLL specification and the declarations in
 * dll.h; cffi's API mode compiles it against the real header, so any field or
 * signature that disagrees with the installed DDS is a build error.
 *
 * Sizes that DDS defines as macros are left to the compiler with "...":
 * MAXNOOFBOARDS (200 in 2.9), MAXNOOFTABLES (40), DDS_HANDS, DDS_SUITS,
 * DDS_STRAINS.  Arrays sized by them are declared [...] and cffi reads their
 * length from the header.
 */

#define DDS_VERSION ...
#define DDS_HANDS ...
#define DDS_SUITS ...
#define DDS_STRAINS ...
#define MAXNOOFBOARDS ...
#define MAXNOOFTABLES ...

/* Return codes (see the "Return codes" section of the DLL description). */
#define RETURN_NO_FAULT ...
#define RETURN_UNKNOWN_FAULT ...
#define RETURN_ZERO_CARDS ...
#define RETURN_TARGET_TOO_HIGH ...
#define RETURN_DUPLICATE_CARDS ...
#define RETURN_TARGET_WRONG_LO ...
#define RETURN_TARGET_WRONG_HI ...
#define RETURN_SOLNS_WRONG_LO ...
#define RETURN_SOLNS_WRONG_HI ...
#define RETURN_TOO_MANY_CARDS ...
#define RETURN_SUIT_OR_RANK ...
#define RETURN_PLAYED_CARD ...
#define RETURN_CARD_COUNT ...
#define RETURN_THREAD_INDEX ...
#define RETURN_MODE_WRONG_LO ...
#define RETURN_MODE_WRONG_HI ...
#define RETURN_TRUMP_WRONG ...
#define RETURN_FIRST_WRONG ...
#define RETURN_PLAY_FAULT ...
#define RETURN_PBN_FAULT ...
#define RETURN_TOO_MANY_BOARDS ...
#define RETURN_THREAD_CREATE ...
#define RETURN_THREAD_WAIT ...
#define RETURN_THREAD_MISSING ...
#define RETURN_NO_SUIT ...
#define RETURN_TOO_MANY_TABLES ...
#define RETURN_CHUNK_SIZE ...

/* The four structs of the DLL specification (Rev I), field for field. */
struct futureTricks {
  int nodes;
  int cards;
  int suit[13];
  int rank[13];
  int equals[13];
  int score[13];
};

struct deal {
  int trump;
  int first;
  int currentTrickSuit[3];
  int currentTrickRank[3];
  unsigned int remainCards[4][4];
};

struct ddTableDeal {
  unsigned int cards[4][4];
};

struct ddTableResults {
  int resTable[5][4];
};

/* The rest of DDS 2.9's dll.h. */
struct dealPBN {
  int trump;
  int first;
  int currentTrickSuit[3];
  int currentTrickRank[3];
  char remainCards[80];
};

struct boards {
  int noOfBoards;
  struct deal deals[...];
  int target[...];
  int solutions[...];
  int mode[...];
};

struct boardsPBN {
  int noOfBoards;
  struct dealPBN deals[...];
  int target[...];
  int solutions[...];
  int mode[...];
};

struct solvedBoards {
  int noOfBoards;
  struct futureTricks solvedBoard[...];
};

struct ddTableDeals {
  int noOfTables;
  struct ddTableDeal deals[...];
};

struct ddTableDealPBN {
  char cards[80];
};

struct ddTableDealsPBN {
  int noOfTables;
  struct ddTableDealPBN deals[...];
};

struct ddTablesRes {
  int noOfBoards;
  struct ddTableResults results[...];
};

struct parResults {
  char parScore[2][16];
  char parContractsString[2][128];
};

struct allParResults {
  struct parResults presults[...];
};

struct parResultsDealer {
  int number;
  int score;
  char contracts[10][10];
};

struct contractType {
  int underTricks;
  int overTricks;
  int level;
  int denom;
  int seats;
};

struct parResultsMaster {
  int score;
  int number;
  struct contractType contracts[10];
};

struct parTextResults {
  char parText[2][128];
  bool equal;
};

struct playTraceBin {
  int number;
  int suit[52];
  int rank[52];
};

struct playTracePBN {
  int number;
  char cards[106];
};

struct solvedPlay {
  int number;
  int tricks[53];
};

struct playTracesBin {
  int noOfBoards;
  struct playTraceBin plays[...];
};

struct playTracesPBN {
  int noOfBoards;
  struct playTracePBN plays[...];
};

struct solvedPlays {
  int noOfBoards;
  struct solvedPlay solved[...];
};

struct DDSInfo {
  int major, minor, patch;
  char versionString[10];
  int system;
  int numBits;
  int compiler;
  int constructor;
  int numCores;
  int threading;
  int noOfThreads;
  char threadSizes[128];
  char systemString[1024];
};

void SetMaxThreads(int userThreads);
int SetThreading(int code);
void SetResources(int maxMemoryMB, int maxThreads);
void FreeMemory(void);

int SolveBoard(struct deal dl, int target, int solutions, int mode,
               struct futureTricks *futp, int threadIndex);
int SolveBoardPBN(struct dealPBN dlpbn, int target, int solutions, int mode,
                  struct futureTricks *futp, int thrId);
int CalcDDtable(struct ddTableDeal tableDeal, struct ddTableResults *tablep);
int CalcDDtablePBN(struct ddTableDealPBN tableDealPBN,
                   struct ddTableResults *tablep);
int CalcAllTables(struct ddTableDeals *dealsp, int mode, int trumpFilter[5],
                  struct ddTablesRes *resp, struct allParResults *presp);
int CalcAllTablesPBN(struct ddTableDealsPBN *dealsp, int mode,
                     int trumpFilter[5], struct ddTablesRes *resp,
                     struct allParResults *presp);
int SolveAllBoards(struct boardsPBN *bop, struct solvedBoards *solvedp);
int SolveAllChunks(struct boardsPBN *bop, struct solvedBoards *solvedp,
                   int chunkSize);
int SolveAllChunksBin(struct boards *bop, struct solvedBoards *solvedp,
                      int chunkSize);
int SolveAllChunksPBN(struct boardsPBN *bop, struct solvedBoards *solvedp,
                      int chunkSize);
int Par(struct ddTableResults *tablep, struct parResults *presp,
        int vulnerable);
int CalcPar(struct ddTableDeal tableDeal, int vulnerable,
            struct ddTableResults *tablep, struct parResults *presp);
int CalcParPBN(struct ddTableDealPBN tableDealPBN,
               struct ddTableResults *tablep, int vulnerable,
               struct parResults *presp);
int SidesPar(struct ddTableResults *tablep, struct parResultsDealer sidesRes[2],
             int vulnerable);
int DealerPar(struct ddTableResults *tablep, struct parResultsDealer *presp,
              int dealer, int vulnerable);
int DealerParBin(struct ddTableResults *tablep, struct parResultsMaster *presp,
                 int dealer, int vulnerable);
int SidesParBin(struct ddTableResults *tablep,
                struct parResultsMaster sidesRes[2], int vulnerable);
int ConvertToDealerTextFormat(struct parResultsMaster *pres, char *resp);
int ConvertToSidesTextFormat(struct parResultsMaster *pres,
                             struct parTextResults *resp);
int AnalysePlayBin(struct deal dl, struct playTraceBin play,
                   struct solvedPlay *solved, int thrId);
int AnalysePlayPBN(struct dealPBN dlPBN, struct playTracePBN playPBN,
                   struct solvedPlay *solvedp, int thrId);
int AnalyseAllPlaysBin(struct boards *bop, struct playTracesBin *plp,
                       struct solvedPlays *solvedp, int chunkSize);
int AnalyseAllPlaysPBN(struct boardsPBN *bopPBN, struct playTracesPBN *plpPBN,
                       struct solvedPlays *solvedp, int chunkSize);
void GetDDSInfo(struct DDSInfo *info);
void ErrorMessage(int code, char line[80]);

/* ddsbind's own glue, defined in build_ffi.py's C source. */

/* SolveAllBoardsBin where DDS has it (upstream after 2.9.0); on 2.9.0 the
   same work through SolveAllChunksBin with chunk size 1. */
int ddsbind_SolveAllBoardsBin(struct boards *bop, struct solvedBoards *solvedp);
/* 1 when the linked DDS exports SolveAllBoardsBin itself. */
int ddsbind_has_SolveAllBoardsBin(void);
/* 1 when DDS was compiled from DDS_SOURCE_DIR, 0 for the system library. */
int ddsbind_from_source(void);
/* Register the glibc on_exit guard (see _binding.py); returns on_exit's rc. */
int ddsbind_install_exit_guard(void);
