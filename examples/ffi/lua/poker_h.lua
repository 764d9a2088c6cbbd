-- include/poker.h's declarations for LuaJIT's ffi.cdef, which reads no
-- preprocessor lines: its types and functions as they are, its #define
-- codes as constants. Generated from the header by
-- crates/libpoker/tests/c_api/lua_declarations.rs, which fails when the two
-- differ; do not edit (regenerate with:
-- POKER_BLESS=1 cargo test -p libpoker --test c_api lua_declarations).
-- Left out, as LuaJIT's constants are 32-bit: FREECELL_MAX_DEAL (8589934591).
return [[
typedef struct PokerGame PokerGame;

typedef struct CamiciaResult {
  int status;
  uint64_t cards;
  uint64_t tricks;
} CamiciaResult;

typedef struct CamiciaError {
  int player;
  uint64_t token;
  uint64_t offset;
} CamiciaError;

typedef struct CamiciaExtension {
  char a[27];
  char b[27];
  char index[24];
  struct CamiciaResult longest;
  struct CamiciaResult original;
  uint64_t added;
  uint64_t joins_trick;
  uint64_t joins_card;
  uint64_t before_join;
  uint64_t nodes;
} CamiciaExtension;

int camicia_simulate(const char *player_a, const char *player_b, struct CamiciaResult *out);

int camicia_simulate_ex(const char *player_a, const char *player_b, struct CamiciaResult *out, struct CamiciaError *err);

int camicia_simulate_penalties(const uint8_t *a, uint64_t a_len, const uint8_t *b, uint64_t b_len, struct CamiciaResult *out);

int camicia_extend(const char *player_a, const char *player_b, struct CamiciaExtension *out);

void p_startgame(void);

void p_look(int *value, int *color);

void p_place(int column);

int poker_last_error(char *buf, int len);

int poker_last_error_code(void);

int poker_fork_server_start(void);

int poker_fork_server_next(void);

void poker_fork_server_child(void);

void poker_fork_server_reap(int pid);

int freecell_deal(int64_t deal_number, unsigned char *cards);

int freecell_format(int64_t deal_number, int format, char *buf, int len);

int64_t freecell_find(const unsigned char *cards, int ncards, int64_t *deal_numbers, int64_t max);

int freecell_deal_range(int64_t first, int64_t count, unsigned char *cards);

struct PokerGame *poker_game_new(uint64_t seed);

struct PokerGame *poker_game_new_deck(const int *values, const int *colors);

struct PokerGame *poker_game_new_text(const char *deck);

int poker_game_look(struct PokerGame *game, int *value, int *color);

int poker_game_place(struct PokerGame *game, int column);

int poker_game_score(const struct PokerGame *game, int *columns_out);

void poker_game_free(struct PokerGame *game);

int poker_game_error(const struct PokerGame *game, char *buf, int len);

int poker_hand_score(const int *values, const int *colors);

int poker_hand_category(const unsigned char *cards);

const char *poker_hand_name(int category);

const char *poker_card_token(int card);

int poker_shuffle(uint64_t seed, unsigned char *cards);

int poker_optimum(const int *values, const int *colors, int count, int *columns_out);

const char *poker_version(void);

static const int CAMICIA_FINISHED = 0;
static const int CAMICIA_LOOP = 1;
static const int POKER_EXIT_VIOLATION = 3;
static const int POKER_EXIT_BAD_SETUP = 2;
static const int POKER_EXIT_CHANNEL = 4;
static const int POKER_EXIT_INTERNAL = 70;
static const int POKER_OK = 0;
static const int POKER_FINISHED = 1;
static const int POKER_ERR_NULL = -1;
static const int POKER_ERR_ARGUMENT = -2;
static const int POKER_ERR_NOT_STARTED = -3;
static const int POKER_ERR_STARTED_TWICE = -4;
static const int POKER_ERR_LOOKED_TWICE = -5;
static const int POKER_ERR_PLACE_WITHOUT_LOOK = -6;
static const int POKER_ERR_COLUMN_OUT_OF_RANGE = -7;
static const int POKER_ERR_UNBALANCED = -8;
static const int POKER_ERR_LOOK_NULL = -9;
static const int POKER_ERR_GAME_OVER = -10;
static const int POKER_ERR_IN_PROGRESS = -11;
static const int POKER_ERR_INTERNAL = -12;
static const int POKER_ERR_CARD = -13;
static const int POKER_ERR_DUPLICATE = -14;
static const int POKER_ERR_NOT_IN_DECK = -15;
static const int POKER_ERR_COUNT = -16;
static const int POKER_ERR_TOKEN = -17;
static const int POKER_ERR_DEAL_NUMBER = -18;
static const int POKER_ERR_LOOP = -19;
static const int POKER_ERR_NOT_FULL_DECK = -20;
static const int POKER_ERR_RESERVED_99 = -99;
static const int FREECELL_MIN_DEAL = 1;
static const int FREECELL_LAYOUT_COLUMNS = 0;
static const int FREECELL_LAYOUT_ROWS = 1;
static const int FREECELL_LAYOUT_ORDER = 2;
static const int FREECELL_TEN_AS_10 = 8;
static const int FREECELL_TEXT_MAX = 256;
static const int POKER_HAND_HIGH_CARD = 0;
static const int POKER_HAND_ONE_PAIR = 1;
static const int POKER_HAND_TWO_PAIR = 2;
static const int POKER_HAND_THREE_OF_A_KIND = 3;
static const int POKER_HAND_STRAIGHT = 4;
static const int POKER_HAND_FLUSH = 5;
static const int POKER_HAND_FULL_HOUSE = 6;
static const int POKER_HAND_FOUR_OF_A_KIND = 7;
static const int POKER_HAND_STRAIGHT_FLUSH = 8;
static const int POKER_VERSION_MAJOR = 0;
static const int POKER_VERSION_MINOR = 3;
static const int POKER_VERSION_PATCH = 0;
static const int POKER_HAND_ERR_NULL = -1;
static const int POKER_HAND_ERR_CARD = -13;
static const int POKER_HAND_ERR_DUPLICATE = -14;
static const int POKER_HAND_ERR_INTERNAL = -12;
static const int FREECELL_ERR_NULL = -1;
static const int FREECELL_ERR_RANGE = -18;
static const int FREECELL_ERR_ARGUMENT = -2;
static const int FREECELL_ERR_INTERNAL = -12;
static const int CAMICIA_ERR_NULL = -1;
static const int CAMICIA_ERR_TOKEN = -17;
static const int CAMICIA_ERR_PENALTY = -13;
static const int CAMICIA_ERR_INTERNAL = -12;
static const int FREECELL_OK = 0;
static const int CAMICIA_OK = 0;
]]
