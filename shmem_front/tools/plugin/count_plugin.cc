// shmemsim's GCC plugin (shmemsim-cc loads it with -fplugin): instruments every basic block of the
// program with a call `__shmemsim_count(N)`, where N is the block's work: GCC's own estimate of the
// machine instructions its statements become (estimate_num_insns with the size weights, the
// estimate the inliner uses for code size), at least 1. An innermost loop whose iterations are
// chained through a register (a recurrence: z = z*z + c, p = p->next), or that keeps the divider
// busy, cannot run faster than that chain's latency or that unit's occupancy however few
// instructions it has: its header calls `__shmemsim_count_chain(N, C, D, L, I)` instead. C is the
// composition of the loop's critical chain by operation class (integer ALU operations, loads,
// floating adds, floating multiplies, and the other operations' cycles), packed 12 bits per class
// (kChainShift below); D its divides and square roots and L the instructions of one pass through
// the loop's usual blocks. The critical chain is chosen with reference latencies (Westmere's,
// below), but the interposition library charges it with the platform's latency per class
// (platform.latency.*): the header counts max(0, max(sum of class count x class latency, D x
// divide time) - L x instruction time) more, and I is the loop's identifier: the blocks that lead
// into the loop call `__shmemsim_count_enter(N, I)`, so that the library knows where one execution
// of the loop ends and the next begins (short executions overlap their chains in an out-of-order
// core's window: platform.reorder_window). The pass runs after every GIMPLE
// optimization ("optimized", just before expansion to RTL), so the count describes the code that
// is really emitted (vectorized, unrolled, inlined), and the count of a block is a compile-time
// constant: executions are deterministic. The interposition library adds N to its work counter
// (instructions) and ends the thread's time slice when it reaches the quantum.
//
// Those calls are the reference (mode=calls: -fplugin-arg-shmemsim_count_plugin-mode=calls,
// SHMEMSIM_CC_COUNT=calls). By default the count is inline, in the program's code, and gives the
// same times at the same points: a block subtracts N x shmemsim_instruction_fs from shmemsim_left,
// the work left before the time slice ends, and calls __shmemsim_count_slow only when that reaches 0
// (the library then does what __shmemsim_count would have done at that block). Through a loop nest
// that calls nothing the work left is a local (a register), loaded on the edges into the nest and
// stored on the edges out of it and around the slow calls. A loop header with a floor has a slot, a
// static of the program: the library arms it with a number of iterations and the work of each (the
// iterations of an open execution before the one that reaches the reorder window, or iterations
// counted at once); the header spends that work while runs are left and calls
// __shmemsim_count_chain_slow (which counts it as __shmemsim_count_chain would, then arms the slot
// again) when none are. A block that leads into such a loop still calls the library
// (__shmemsim_count_enter_arm: the last execution's chain is charged there), which arms the loop's
// header for the new execution.
//
// Plugin code runs inside cc1/cc1plus: it uses GCC's internal API (gcc-12-plugin-dev).
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "tree-inline.h"
#include "stringpool.h"
#include "gimple-ssa.h"
#include "tree-ssa-operands.h"
#include "tree-into-ssa.h"
#include "cgraph.h"
#include "cfgloop.h"
#include "cfgloopmanip.h"
#include "tree-phinodes.h"
#include "ssa.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "gimple-iterator.h"
#include "ggc.h"
#include "ssa-iterators.h"
#include "hash-map.h"
#include "hash-set.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "tree-ssa-address.h"
#include "tree-cfg.h"

int plugin_is_GPL_compatible;

namespace {

const pass_data kCountPassData = {
    GIMPLE_PASS,
    "shmemsim_count", // dump: -fdump-tree-shmemsim_count
    OPTGROUP_NONE,
    TV_NONE,
    PROP_cfg, // properties_required
    0,
    0,
    0,
    0,
};

/// The work of a basic block: GCC's size estimate of its statements, in instructions, at least 1
/// (an empty block still costs a jump; a loop made of nothing must still end its time slices).
unsigned long block_work(basic_block bb)
{
  unsigned long n = 0;
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
    gimple* stmt = gsi_stmt(gsi);
    if (is_gimple_debug(stmt))
      continue;
    int w = estimate_num_insns(stmt, &eni_size_weights);
    if (w > 0)
      n += static_cast<unsigned long>(w);
  }
  return n > 0 ? n : 1;
}

constexpr int kNone = -1000000; // no path

/// Operation classes of a chain, as the interposition library prices them (platform.latency.int,
/// .load, .fp_add, .fp_mul; the other operations' reference cycles at platform.latency.int, one
/// integer ALU operation being one cycle). Keep in step with shmem_front/interpose/interpose.c.
enum OpClass { kInt = 0, kLoad = 1, kFpAdd = 2, kFpMul = 3, kOther = 4, kClasses = 5, kNoClass = -1 };
constexpr int kChainShift    = 12; // bits per class in the packed composition
constexpr unsigned kChainMax = (1u << kChainShift) - 1;

/// One statement's class and latency in reference cycles: the Nehalem/Westmere core's (Intel 64
/// and IA-32 Architectures Optimization Reference Manual, appendix C; qdr-16's X5680): load from L1
/// 4, integer add/logic 1, floating add 3, multiply 5 (these four are classes of their own, priced
/// per platform); integer multiply 3, divide 20, floating divide 14, square root 18, conversions 4,
/// fused multiply-adds and other calls 5 (class kOther, counted in these cycles); copies and no-op
/// conversions 0 (no class). The reference latencies only choose the critical path.
struct OpLatency {
  int cls;
  int cycles;
};

OpLatency latency(const gimple* stmt)
{
  if (is_gimple_call(stmt)) {
    switch (gimple_call_combined_fn(stmt)) {
      case CFN_SQRT:
      case CFN_BUILT_IN_SQRT:
      case CFN_BUILT_IN_SQRTF:
      case CFN_BUILT_IN_SQRTL:
        return {kOther, 18};
      default: // a fused multiply-add, or a call
        return {kOther, 5};
    }
  }
  if (!is_gimple_assign(stmt))
    return {kInt, 1};
  if (gimple_assign_load_p(stmt))
    return {kLoad, 4};
  const tree_code code = gimple_assign_rhs_code(stmt);
  const tree type      = TREE_TYPE(gimple_assign_lhs(stmt));
  const bool fp        = FLOAT_TYPE_P(type);
  switch (code) {
    case SSA_NAME: // copies and no-op conversions
    case NOP_EXPR:
    case VIEW_CONVERT_EXPR:
      return {kNoClass, 0};
    case MULT_EXPR:
    case WIDEN_MULT_EXPR:
      return fp ? OpLatency{kFpMul, 5} : OpLatency{kOther, 3};
    case PLUS_EXPR:
    case MINUS_EXPR:
    case NEGATE_EXPR:
    case ABS_EXPR:
    case MIN_EXPR:
    case MAX_EXPR:
      return fp ? OpLatency{kFpAdd, 3} : OpLatency{kInt, 1};
    case RDIV_EXPR:
      return {kOther, 14};
    case TRUNC_DIV_EXPR:
    case TRUNC_MOD_EXPR:
    case FLOOR_DIV_EXPR:
    case FLOOR_MOD_EXPR:
    case CEIL_DIV_EXPR:
    case EXACT_DIV_EXPR:
      return {kOther, 20};
    case FLOAT_EXPR:
    case FIX_TRUNC_EXPR:
      return {kOther, 4};
    default:
      return fp ? OpLatency{kFpAdd, 3} : OpLatency{kInt, 1};
  }
}

/// A dependency path: its reference cycles, and its operations by class (kOther: cycles).
struct Path {
  int cycles = kNone;
  unsigned count[kClasses] = {};

  void add(const OpLatency& op)
  {
    cycles += op.cycles;
    if (op.cls == kOther)
      count[kOther] += static_cast<unsigned>(op.cycles);
    else if (op.cls != kNoClass)
      count[op.cls] += 1;
  }
  /// The composition packed for __shmemsim_count_chain: class c in bits [12c, 12c + 12).
  unsigned long packed() const
  {
    unsigned long p = 0;
    for (int c = 0; c < kClasses; ++c)
      p |= static_cast<unsigned long>(MIN(count[c], kChainMax)) << (kChainShift * c);
    return p;
  }
};

/// The longest latency path (by reference cycles; the first found among equals) from `from` (a
/// loop header's PHI result) to `name` through the statements of `loop`, or a path of kNone cycles
/// when `name` does not depend on `from` inside the loop.
Path chain(tree name, tree from, const class loop* loop, hash_map<tree, Path>& memo, int depth)
{
  Path best;
  if (name == from) {
    best.cycles = 0;
    return best;
  }
  if (TREE_CODE(name) != SSA_NAME || depth > 64)
    return best;
  if (Path* m = memo.get(name))
    return *m;
  memo.put(name, best); // a cycle through other PHIs is no path
  gimple* def = SSA_NAME_DEF_STMT(name);
  if (def != nullptr && gimple_bb(def) != nullptr && flow_bb_inside_loop_p(loop, gimple_bb(def))) {
    if (gphi* phi = dyn_cast<gphi*>(def)) {
      if (gimple_bb(def) != loop->header) // a join inside the body: either way
        for (unsigned i = 0; i < gimple_phi_num_args(phi); ++i) {
          const Path p = chain(gimple_phi_arg_def(phi, i), from, loop, memo, depth + 1);
          if (p.cycles > best.cycles)
            best = p;
        }
    } else {
      ssa_op_iter it;
      tree use;
      Path longest;
      FOR_EACH_SSA_TREE_OPERAND(use, def, it, SSA_OP_USE) {
        const Path p = chain(use, from, loop, memo, depth + 1);
        if (p.cycles > longest.cycles)
          longest = p;
      }
      if (longest.cycles > kNone) {
        best = longest;
        best.add(latency(def));
      }
    }
  }
  memo.put(name, best);
  return best;
}

/// The chain one iteration of an innermost loop takes at least: its longest recurrence (a header
/// PHI back to its own value on the latch edge), by reference cycles; `phi` is set to that PHI.
Path recurrence(const class loop* loop, gphi** phi_out)
{
  Path longest;
  longest.cycles = 0;
  *phi_out       = nullptr;
  if (loop->latch == nullptr)
    return longest;
  const edge latch = loop_latch_edge(loop);
  for (gphi_iterator gsi = gsi_start_phis(loop->header); !gsi_end_p(gsi); gsi_next(&gsi)) {
    gphi* phi = gsi.phi();
    tree res  = gimple_phi_result(phi);
    if (virtual_operand_p(res))
      continue;
    hash_map<tree, Path> memo;
    const Path p = chain(gimple_phi_arg_def(phi, latch->dest_idx), res, loop, memo, 0);
    if (p.cycles > longest.cycles) {
      longest  = p;
      *phi_out = phi;
    }
  }
  return longest;
}

/// Whether an induction variable's PHI: its latch value is the PHI plus or minus something.
bool induction_phi(gphi* phi, const class loop* loop)
{
  if (loop->latch == nullptr)
    return false;
  tree next = gimple_phi_arg_def(phi, loop_latch_edge(loop)->dest_idx);
  if (TREE_CODE(next) != SSA_NAME)
    return false;
  gimple* def = SSA_NAME_DEF_STMT(next);
  if (!is_gimple_assign(def))
    return false;
  const tree_code code = gimple_assign_rhs_code(def);
  return (code == PLUS_EXPR || code == MINUS_EXPR || code == POINTER_PLUS_EXPR) &&
         gimple_assign_rhs1(def) == gimple_phi_result(phi);
}

/// Whether value `v` may carry a chain from one execution of an inner loop to the next: it comes
/// from a PHI of an enclosing loop's header that is no induction variable (a running value, as a
/// checksum the inner loop updates), or from a parameter (a caller's running value), possibly
/// through other operations. Constants, loads and induction variables carry none.
bool carries(tree v, hash_set<tree>& seen, int depth)
{
  if (TREE_CODE(v) != SSA_NAME)
    return false;
  if (depth > 32)
    return true; // too deep to tell: as if it did
  if (seen.add(v))
    return false;
  if (SSA_NAME_IS_DEFAULT_DEF(v))
    return !virtual_operand_p(v); // a parameter
  gimple* def = SSA_NAME_DEF_STMT(v);
  basic_block bb = gimple_bb(def);
  if (bb == nullptr)
    return false;
  if (gphi* phi = dyn_cast<gphi*>(def)) {
    const class loop* around = bb->loop_father;
    if (around != nullptr && around->header == bb && loop_outer(around) != nullptr)
      return !induction_phi(phi, around);
    for (unsigned i = 0; i < gimple_phi_num_args(phi); ++i)
      if (carries(gimple_phi_arg_def(phi, i), seen, depth + 1))
        return true;
    return false;
  }
  if (is_gimple_assign(def) && gimple_assign_load_p(def))
    return false; // a value from memory: no register chain
  ssa_op_iter it;
  tree use;
  FOR_EACH_SSA_TREE_OPERAND(use, def, it, SSA_OP_USE)
    if (carries(use, seen, depth + 1))
      return true;
  return false;
}

/// Whether each execution of `loop` starts its recurrence `phi` afresh (a sum from 0 for each row),
/// so that short executions may overlap their chains, rather than going on from the last one's.
bool restarts(gphi* phi, const class loop* loop)
{
  hash_set<tree> seen;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, loop->header->preds)
    if (!flow_bb_inside_loop_p(loop, e->src) && carries(gimple_phi_arg_def(phi, e->dest_idx), seen, 0))
      return false;
  return true;
}

/// Whether a statement uses the divider (floating divide, square root, integer divide: units that
/// accept one operation at a time on Westmere, a few at a time on later cores), as its latency,
/// non-zero, or 0 for pipelined operations.
int occupancy(const gimple* stmt)
{
  const int lat = latency(stmt).cycles;
  const bool unpipelined = (is_gimple_assign(stmt) && !gimple_assign_load_p(stmt) &&
                            (gimple_assign_rhs_code(stmt) == RDIV_EXPR || lat == 20)) ||
                           (is_gimple_call(stmt) && lat == 18);
  return unpipelined ? lat : 0;
}

/// Whether block `bb` of `loop` runs in most iterations (by GCC's estimated profile: at least a
/// quarter as often as the header), so an unlikely path (an error branch) is not one iteration's work.
bool usual(basic_block bb, const class loop* loop)
{
  const profile_count b = bb->count, h = loop->header->count;
  if (!b.initialized_p() || !h.initialized_p())
    return true;
  return b.to_gcov_type() * 4 >= h.to_gcov_type();
}

/// Divides and square roots in one pass through the usual blocks of a loop body: operations of
/// the units that are not pipelined (or little), charged platform.divide_time each.
unsigned long unit_operations(basic_block* body, const class loop* loop)
{
  unsigned long n = 0;
  for (unsigned i = 0; i < loop->num_nodes; ++i)
    if (usual(body[i], loop))
      for (gimple_stmt_iterator gsi = gsi_start_bb(body[i]); !gsi_end_p(gsi); gsi_next(&gsi))
        n += occupancy(gsi_stmt(gsi)) > 0 ? 1 : 0;
  return n;
}

/// A loop header's floor: one iteration takes at least its recurrence's `chain` (the packed
/// composition by class) and at least `divides` times the divider's time, whatever its
/// `instructions` (those of one pass through the loop's usual blocks).
struct LoopFloor {
  unsigned long chain        = 0;
  unsigned long divides      = 0;
  unsigned long instructions = 0;
  unsigned long id           = 0; ///< the loop's identifier in the program (never 0)
};
using WorkMap  = hash_map<int_hash<int, -1, -2>, unsigned long>;
using FloorMap = hash_map<int_hash<int, -1, -2>, LoopFloor>;
/// A loop with a floor that a block leads into: its identifier and its header block.
struct LoopEntry {
  unsigned long id = 0;
  int header       = 0;
};
/// Blocks that lead into a loop with a floor (from outside it), with that loop.
using EnterMap = hash_map<int_hash<int, -1, -2>, LoopEntry>;

/// An identifier for the loop headed by block `header` of `fun`, the same in every compilation and
/// unlikely to be another loop's of the program: a 64-bit FNV-1a hash of the source file, the
/// function's name and the header's index (never 0: 0 means "no loop" to the library).
unsigned long loop_id(function* fun, int header)
{
  unsigned long h = 1469598103934665603ul;
  auto hash_in    = [&h](const char* text) {
    for (const char* c = text; c != nullptr && *c != '\0'; ++c)
      h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ul;
    h = (h ^ 0xffu) * 1099511628211ul;
  };
  hash_in(main_input_filename);
  hash_in(function_name(fun));
  char index[24];
  snprintf(index, sizeof index, "%d", header);
  hash_in(index);
  return h != 0 ? h : 1;
}

/// The blocks through which the loops of `floors` are entered: each loop's header's predecessors
/// outside it. A predecessor inside another loop with a floor is left out (it runs at each of that
/// loop's iterations, and would cut that loop's executions into single iterations): such a loop's
/// chain is then charged at each iteration, without overlap.
void find_loop_entries(function* fun, const FloorMap& floors, EnterMap& enters)
{
  for (auto loop : loops_list(fun, LI_ONLY_INNERMOST)) {
    const LoopFloor* floor = const_cast<FloorMap&>(floors).get(loop->header->index);
    if (floor == nullptr || floor->id == 0)
      continue;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, loop->header->preds) {
      basic_block src = e->src;
      if (flow_bb_inside_loop_p(loop, src) || src->index < NUM_FIXED_BLOCKS)
        continue;
      const class loop* around = src->loop_father;
      if (around != nullptr && around->header != nullptr && const_cast<FloorMap&>(floors).get(around->header->index) != nullptr)
        continue;
      enters.put(src->index, LoopEntry{floor->id, loop->header->index});
    }
  }
}

/// The floors of the innermost loops (their recurrences, their dividers), by header block.
void find_loop_floors(function* fun, WorkMap& work, FloorMap& floors, EnterMap& enters)
{
  if (optimize == 0 || !gimple_in_ssa_p(fun))
    return; // at -O0 values go through memory: no register recurrences to find
  // The loop tree GCC keeps through its optimizations, checked (or built when there is none: then
  // freed again, as it was not there before).
  const bool had_loops = loops_for_fn(fun) != nullptr;
  loop_optimizer_init(AVOID_CFG_MODIFICATIONS);
  for (auto loop : loops_list(fun, LI_ONLY_INNERMOST)) {
    basic_block* body = get_loop_body(loop);
    gphi* phi       = nullptr;
    const Path path = recurrence(loop, &phi);
    LoopFloor floor;
    floor.chain   = path.cycles > 0 ? path.packed() : 0;
    floor.divides = unit_operations(body, loop);
    for (unsigned i = 0; i < loop->num_nodes; ++i)
      if (unsigned long* w = work.get(body[i]->index); w != nullptr && usual(body[i], loop))
        floor.instructions += *w;
    free(body);
    // Executions that go on with the last one's chain never overlap: no identifier (0), charged at once.
    floor.id = phi != nullptr && !restarts(phi, loop) ? 0 : loop_id(fun, loop->header->index);
    if (floor.chain > 0 || floor.divides > 0)
      floors.put(loop->header->index, floor);
  }
  find_loop_entries(fun, floors, enters);
  if (!had_loops)
    loop_optimizer_finalize();
}

/// What the instrumentation calls and reads (shmem_front/interpose/interpose.c), declared once per
/// compilation and kept alive as GC roots (a decl outlives the first function that used it).
enum Decl {
  kCount,          ///< void __shmemsim_count(unsigned long instructions)
  kCountEnter,     ///< void __shmemsim_count_enter(unsigned long instructions, unsigned long loop)
  kCountChain,     ///< void __shmemsim_count_chain(instructions, chain, divides, loop_instructions, loop)
  kCountSlow,      ///< void __shmemsim_count_slow(void): the work left ran out
  kCountChainSlow, ///< void __shmemsim_count_chain_slow(the five of __shmemsim_count_chain, slot)
  kCountEnterArm,  ///< void __shmemsim_count_enter_arm(the two of __shmemsim_count_enter, the header's
                   ///< instructions, chain, divides, loop_instructions, slot)
  kLeft,           ///< long shmemsim_left: the work (fs) left before the time slice ends
  kInstructionFs,  ///< unsigned long shmemsim_instruction_fs
  kMemory,         ///< void __shmemsim_memory(unsigned long address, unsigned long flags)
  kMemoryMask,     ///< unsigned long shmemsim_memory_mask: a reference is reported when
  kMemoryMatch,    ///< (address & shmemsim_memory_mask) == shmemsim_memory_match
  kDecls
};
tree decls[kDecls];
const ggc_root_tab kDeclRoots[] = {{&decls[0], kDecls, sizeof(tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
                                   LAST_GGC_ROOT_TAB};

/// Instrument with calls only (plugin argument mode=calls): every block calls the library, the
/// reference the inline path must equal (tests compare the two).
bool calls_only = false;

tree declare_function(const char* name, int args)
{
  tree params = void_list_node;
  for (int i = 0; i < args; ++i)
    params = tree_cons(NULL_TREE, long_unsigned_type_node, params);
  tree decl           = build_fn_decl(name, build_function_type(void_type_node, params));
  TREE_NOTHROW(decl)  = 1;
  DECL_EXTERNAL(decl) = 1;
  TREE_PUBLIC(decl)   = 1;
  return decl;
}

tree declare_variable(const char* name, tree type)
{
  tree decl             = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(name), type);
  TREE_PUBLIC(decl)     = 1;
  DECL_EXTERNAL(decl)   = 1;
  DECL_ARTIFICIAL(decl) = 1;
  TREE_USED(decl)       = 1;
  DECL_IGNORED_P(decl)  = 1;
  varpool_node::get_create(decl);
  return decl;
}

void declare_all()
{
  if (decls[kCount] != NULL_TREE)
    return;
  decls[kCount]          = declare_function("__shmemsim_count", 1);
  decls[kCountEnter]     = declare_function("__shmemsim_count_enter", 2);
  decls[kCountChain]     = declare_function("__shmemsim_count_chain", 5);
  decls[kCountSlow]      = declare_function("__shmemsim_count_slow", 0);
  decls[kCountChainSlow] = declare_function("__shmemsim_count_chain_slow", 6);
  decls[kCountEnterArm]  = declare_function("__shmemsim_count_enter_arm", 7);
  decls[kLeft]           = declare_variable("shmemsim_left", long_integer_type_node);
  decls[kInstructionFs]  = declare_variable("shmemsim_instruction_fs", long_unsigned_type_node);
  decls[kMemory]         = declare_function("__shmemsim_memory", 2);
  decls[kMemoryMask]     = declare_variable("shmemsim_memory_mask", long_unsigned_type_node);
  decls[kMemoryMatch]    = declare_variable("shmemsim_memory_match", long_unsigned_type_node);
}

tree ulong(unsigned long v) { return build_int_cst(long_unsigned_type_node, v); }

/// A loop header's slot, a static of the program: [0] the iterations the library armed the header
/// for (0: none, the next one calls __shmemsim_count_chain_slow), [1] the work (fs) of each; for
/// the blocks that lead into the loop: [2] the runs left after an execution of as many iterations
/// as the last one (0: none), [3] what such an execution's chain costs when it ends, [4] the runs
/// the library arms the header with for a new execution (interpose.c, __shmemsim_count_enter_arm).
constexpr unsigned long kSlotWords = 5;
tree make_slot()
{
  static unsigned serial = 0;
  char name[32];
  snprintf(name, sizeof name, "__shmemsim_slot.%u", serial++);
  tree decl             = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(name),
                                     build_array_type_nelts(long_unsigned_type_node, kSlotWords));
  TREE_STATIC(decl)     = 1;
  TREE_PUBLIC(decl)     = 0;
  DECL_ARTIFICIAL(decl) = 1;
  DECL_IGNORED_P(decl)  = 1;
  TREE_USED(decl)       = 1;
  TREE_ADDRESSABLE(decl) = 1;
  SET_DECL_ASSEMBLER_NAME(decl, DECL_NAME(decl));
  varpool_node::finalize_decl(decl);
  return decl;
}

/// Element `i` of `slot` (a fresh reference: GIMPLE shares none).
tree slot_ref(tree slot, unsigned long i)
{
  return build4(ARRAY_REF, long_unsigned_type_node, slot, ulong(i), NULL_TREE, NULL_TREE);
}

/// The call that counts a block: its instructions; for a loop header its loop's floor; for a
/// block that leads into a loop with a floor, that loop's identifier.
gcall* count_call(unsigned long instructions, const LoopFloor* floor, const LoopEntry* enters)
{
  if (floor != nullptr)
    return gimple_build_call(decls[kCountChain], 5, ulong(instructions), ulong(floor->chain), ulong(floor->divides),
                             ulong(floor->instructions), ulong(floor->id));
  if (enters != nullptr)
    return gimple_build_call(decls[kCountEnter], 2, ulong(instructions), ulong(enters->id));
  return gimple_build_call(decls[kCount], 1, ulong(instructions));
}

void insert_at_start(basic_block bb, gimple* stmt)
{
  gimple_stmt_iterator gsi = gsi_after_labels(bb);
  gsi_insert_before(&gsi, stmt, GSI_SAME_STMT);
}

/// Where a block counts. `left` is the work left (shmemsim_left) itself, or a local the function
/// keeps in a register through a loop nest that calls nothing (loaded on the edges into the nest,
/// stored back on the edges out of it and around the slow path's calls); likewise the runs and the
/// work of the slot of the nest's one loop header with a floor (`header`, -1 if none).
struct Counter {
  tree left   = NULL_TREE;
  int header  = -1;
  tree slot   = NULL_TREE;
  tree runs   = NULL_TREE; ///< a local, for `header`
  tree cost   = NULL_TREE; ///< a local, for `header`
  bool local() const { return left != decls[kLeft]; }
};

/// Statements built in order (SSA temporaries), for the start of a block.
struct Seq {
  gimple_seq seq = nullptr;

  tree op(tree type, tree_code code, tree a, tree b = NULL_TREE)
  {
    tree t = make_ssa_name(type);
    gimple_seq_add_stmt(&seq, b == NULL_TREE ? gimple_build_assign(t, code, a) : gimple_build_assign(t, code, a, b));
    return t;
  }
  tree load(tree var)
  {
    tree t = make_ssa_name(TREE_TYPE(var));
    gimple_seq_add_stmt(&seq, gimple_build_assign(t, var));
    return t;
  }
  void store(tree var, tree value) { gimple_seq_add_stmt(&seq, gimple_build_assign(var, value)); }
  void branch(tree_code code, tree a, tree b) { gimple_seq_add_stmt(&seq, gimple_build_cond(code, a, b, NULL_TREE, NULL_TREE)); }

  /// The work left -= cost (fs); then branch on "it ran out" (0 or less). Signed: the work left is
  /// at most LONG_MAX and a block's cost far below it, so that nothing overflows.
  void spend(tree cost, const Counter& c)
  {
    tree now = op(long_integer_type_node, MINUS_EXPR, load(c.left), op(long_integer_type_node, NOP_EXPR, cost));
    store(c.left, now);
    branch(LE_EXPR, now, build_int_cst(long_integer_type_node, 0));
  }
};

/// Puts `seq` (ending with a condition) at the start of `bb`, whose statements go on in a block of
/// their own (`*rest`), and returns a new empty block taken when the condition holds (with
/// probability `taken`), which goes on to `*rest`.
basic_block branch_at_start(basic_block bb, gimple_seq seq, profile_probability taken, basic_block* rest)
{
  gimple* cond             = gimple_seq_last_stmt(seq);
  gimple_stmt_iterator gsi = gsi_after_labels(bb);
  gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
  edge on              = split_block(bb, cond);
  *rest                = on->dest;
  on->flags            = (on->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  on->probability      = taken.invert();
  basic_block side     = create_empty_bb(EXIT_BLOCK_PTR_FOR_FN(cfun)->prev_bb);
  side->count          = bb->count.apply_probability(taken);
  edge to_side         = make_edge(bb, side, EDGE_TRUE_VALUE);
  to_side->probability = taken;
  make_single_succ_edge(side, *rest, EDGE_FALLTHRU);
  if (current_loops != nullptr)
    add_bb_to_loop(side, bb->loop_father);
  return side;
}

/// Loads a nest's locals from memory (`load`) or stores them back.
void sync_locals(Seq& s, const Counter& c, bool load)
{
  if (!c.local())
    return;
  if (load) {
    s.store(c.left, decls[kLeft]);
  } else {
    s.store(decls[kLeft], c.left);
  }
  if (c.header < 0)
    return;
  if (load) {
    s.store(c.runs, slot_ref(c.slot, 0));
    s.store(c.cost, slot_ref(c.slot, 1));
  } else {
    s.store(slot_ref(c.slot, 0), c.runs);
  }
}

/// `call` in the empty block `side`, the nest's locals stored before it and loaded after it.
void put_call(basic_block side, gcall* call, const Counter& c)
{
  Seq s;
  sync_locals(s, c, false);
  gimple_seq_add_stmt(&s.seq, call);
  sync_locals(s, c, true);
  gimple_stmt_iterator gsi = gsi_start_bb(side);
  gsi_insert_seq_after(&gsi, s.seq, GSI_NEW_STMT);
}

/// A block's count inline: the work left -= instructions x shmemsim_instruction_fs (`fs`, read at
/// the function's entry), and the library's slow path when the time slice ends.
void count_inline(basic_block bb, unsigned long instructions, tree fs, const Counter& c)
{
  Seq s;
  s.spend(instructions == 1 ? fs : s.op(long_unsigned_type_node, MULT_EXPR, fs, ulong(instructions)), c);
  basic_block rest;
  put_call(branch_at_start(bb, s.seq, profile_probability::very_unlikely(), &rest),
           gimple_build_call(decls[kCountSlow], 0), c);
}

/// A loop header's count inline: while the library has armed its slot with runs left, one run (the
/// slot's work, spent as a block's: an iteration of an open execution or one counted at once,
/// interpose.c); otherwise the slow path, which counts the header as __shmemsim_count_chain does
/// and arms the slot for the next iterations.
void chain_inline(basic_block bb, unsigned long instructions, const LoopFloor& floor, tree slot, const Counter& c)
{
  tree u         = long_unsigned_type_node;
  const bool own = c.header == bb->index;
  Seq s;
  tree runs = s.load(own ? c.runs : slot_ref(slot, 0));
  s.branch(EQ_EXPR, runs, ulong(0));
  basic_block fast;
  basic_block slow = branch_at_start(bb, s.seq, profile_probability::unlikely(), &fast);
  put_call(slow,
           gimple_build_call(decls[kCountChainSlow], 6, ulong(instructions), ulong(floor.chain), ulong(floor.divides),
                             ulong(floor.instructions), ulong(floor.id), build_fold_addr_expr(slot)),
           c);
  Seq f;
  f.store(own ? c.runs : slot_ref(slot, 0), f.op(u, MINUS_EXPR, runs, ulong(1)));
  f.spend(f.load(own ? c.cost : slot_ref(slot, 1)), c);
  basic_block rest;
  put_call(branch_at_start(fast, f.seq, profile_probability::very_unlikely(), &rest),
           gimple_build_call(decls[kCountSlow], 0), c);
  redirect_edge_succ(single_succ_edge(slow), rest); // the slow path counted the header: past the fast one
}

/// A block that leads into a loop with a floor: a call that ends the last loop execution and opens
/// this one (__shmemsim_count_enter), arming the loop's header's slot for its first iterations.
/// Inline (`fs` given), when the execution that ends had as many iterations as the one before
/// (the slot's runs left read [2]) and the time slice does not end here, the block counts what
/// the call would: that execution's chain ([3]) and its own instructions, and arms the header
/// again ([4]); otherwise it calls the library.
void enter_call(basic_block bb, unsigned long instructions, const LoopEntry& entry, const LoopFloor* floor,
                unsigned long header_instructions, tree slot, tree fs)
{
  if (floor == nullptr || slot == NULL_TREE) {
    insert_at_start(bb, count_call(instructions, nullptr, &entry));
    return;
  }
  gcall* call = gimple_build_call(decls[kCountEnterArm], 7, ulong(instructions), ulong(entry.id),
                                  ulong(header_instructions), ulong(floor->chain), ulong(floor->divides),
                                  ulong(floor->instructions), build_fold_addr_expr(slot));
  if (fs == NULL_TREE) {
    insert_at_start(bb, call);
    return;
  }
  tree u = long_unsigned_type_node, l = long_integer_type_node, b = boolean_type_node;
  Seq s;
  tree runs  = s.load(slot_ref(slot, 0));
  tree like  = s.op(b, EQ_EXPR, runs, s.load(slot_ref(slot, 2)));
  tree some  = s.op(b, NE_EXPR, runs, ulong(0));
  tree cost  = s.op(u, PLUS_EXPR, s.load(slot_ref(slot, 3)),
                    instructions == 1 ? fs : s.op(u, MULT_EXPR, fs, ulong(instructions)));
  tree left  = s.load(decls[kLeft]);
  tree cost_l = s.op(l, NOP_EXPR, cost);
  tree room  = s.op(b, GT_EXPR, left, cost_l);
  tree fast_ok = s.op(b, BIT_AND_EXPR, s.op(b, BIT_AND_EXPR, like, some), room);
  s.branch(EQ_EXPR, fast_ok, boolean_false_node);
  basic_block fast;
  basic_block slow = branch_at_start(bb, s.seq, profile_probability::unlikely(), &fast);
  gimple_stmt_iterator gsi = gsi_start_bb(slow);
  gsi_insert_after(&gsi, call, GSI_NEW_STMT);
  Seq f;
  f.store(decls[kLeft], f.op(l, MINUS_EXPR, left, cost_l));
  f.store(slot_ref(slot, 0), f.load(slot_ref(slot, 4)));
  gimple* last = gimple_seq_last_stmt(f.seq);
  gsi          = gsi_after_labels(fast);
  gsi_insert_seq_before(&gsi, f.seq, GSI_SAME_STMT);
  basic_block rest = split_block(fast, last)->dest;
  redirect_edge_succ(single_succ_edge(slow), rest); // the call counted the block: past the inline count
}

/// Whether `fun` can take the inline path: in SSA, no abnormal edges (setjmp, nonlocal gotos,
/// computed gotos), whose blocks must not be split.
bool inline_ok(function* fun)
{
  if (!gimple_in_ssa_p(fun) || fun->calls_setjmp || fun->has_nonlocal_label)
    return false;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun) {
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->preds)
      if ((e->flags & EDGE_ABNORMAL) != 0)
        return false;
  }
  return true;
}

// ------------------------------------------------------------------ memory references
//
// The cache model (shmem_front/runtime/CacheModel.hpp) sees the loads and stores through memory:
// at the end of each block that has some, the block computes their addresses and, when one of
// them is on a sampled line ((address & shmemsim_memory_mask) == shmemsim_memory_match, two
// values read at the function's entry), calls __shmemsim_memory for each of them, with its kind:
// kRefStore, kRefChain (a load on an innermost loop's recurrence, whose misses cannot overlap),
// kRefStream (in an innermost loop, an address that advances by a constant step of at most
// kStreamStep bytes an iteration, GCC's scalar evolution says: the hardware prefetchers fetch its
// lines ahead, its misses cost the lines' transfer). Locals the compiler keeps where it likes (not
// addressable) are left out: they are registers or stack slots, which stay in the first level.

constexpr unsigned long kRefStore = 1, kRefChain = 2, kRefStream = 4; // CacheModel.hpp's MemoryRef
constexpr unsigned kMaxRefs        = 64;   // references reported per block, at most
constexpr long kStreamStep         = 2048; // the largest stride a core's stride prefetcher follows (bytes)
/// Kinds of a statement's references found by the loop analysis: its load's, and its store's << 8.
using RefKinds = hash_map<gimple*, unsigned long>;

constexpr long kUnknownStep = LONG_MIN; // not an affine function of the iteration

/// What `name` adds each iteration of `loop`: 0 for a value that does not change in it, the
/// increment of an induction variable (a header PHI whose next value is itself plus a constant),
/// through sums, differences, products by constants and conversions; kUnknownStep otherwise (a
/// value loaded from memory, or anything else).
long iv_step(tree name, const class loop* loop, int depth)
{
  if (TREE_CODE(name) == INTEGER_CST || is_gimple_min_invariant(name))
    return 0;
  if (TREE_CODE(name) != SSA_NAME || depth > 16)
    return kUnknownStep;
  gimple* def = SSA_NAME_DEF_STMT(name);
  if (SSA_NAME_IS_DEFAULT_DEF(name) || gimple_bb(def) == nullptr || !flow_bb_inside_loop_p(loop, gimple_bb(def)))
    return 0;
  if (gphi* phi = dyn_cast<gphi*>(def)) {
    if (gimple_bb(def) != loop->header || loop->latch == nullptr)
      return kUnknownStep;
    tree next = gimple_phi_arg_def(phi, loop_latch_edge(loop)->dest_idx);
    gimple* inc = TREE_CODE(next) == SSA_NAME ? SSA_NAME_DEF_STMT(next) : nullptr;
    if (inc == nullptr || !is_gimple_assign(inc) || gimple_assign_rhs1(inc) != name)
      return kUnknownStep;
    const tree_code code = gimple_assign_rhs_code(inc);
    tree by              = gimple_assign_rhs2(inc);
    if ((code != PLUS_EXPR && code != POINTER_PLUS_EXPR && code != MINUS_EXPR) || !tree_fits_shwi_p(by))
      return kUnknownStep;
    return code == MINUS_EXPR ? -tree_to_shwi(by) : tree_to_shwi(by);
  }
  if (!is_gimple_assign(def) || gimple_assign_load_p(def))
    return kUnknownStep;
  const tree_code code = gimple_assign_rhs_code(def);
  const long a         = iv_step(gimple_assign_rhs1(def), loop, depth + 1);
  if (a == kUnknownStep)
    return kUnknownStep;
  switch (code) {
    case SSA_NAME:
    case NOP_EXPR:
    case CONVERT_EXPR:
      return a;
    case NEGATE_EXPR:
      return -a;
    case PLUS_EXPR:
    case POINTER_PLUS_EXPR:
    case MINUS_EXPR: {
      const long b = iv_step(gimple_assign_rhs2(def), loop, depth + 1);
      return b == kUnknownStep ? kUnknownStep : code == MINUS_EXPR ? a - b : a + b;
    }
    case MULT_EXPR:
      return tree_fits_shwi_p(gimple_assign_rhs2(def)) ? a * tree_to_shwi(gimple_assign_rhs2(def)) : kUnknownStep;
    default:
      return kUnknownStep;
  }
}

/// The bytes reference `ref` moves each iteration of `loop` (kUnknownStep if not constant).
long ref_step(tree ref, const class loop* loop)
{
  const auto scaled = [](long step, tree size) {
    return step == kUnknownStep || size == NULL_TREE || !tree_fits_shwi_p(size) ? kUnknownStep
                                                                                : step * tree_to_shwi(size);
  };
  const auto sum = [](long a, long b) { return a == kUnknownStep || b == kUnknownStep ? kUnknownStep : a + b; };
  switch (TREE_CODE(ref)) {
    case MEM_REF:
      return iv_step(TREE_OPERAND(ref, 0), loop, 0);
    case TARGET_MEM_REF: {
      long s = iv_step(TMR_BASE(ref), loop, 0);
      if (TMR_INDEX(ref) != NULL_TREE)
        s = sum(s, TMR_STEP(ref) != NULL_TREE ? scaled(iv_step(TMR_INDEX(ref), loop, 0), TMR_STEP(ref))
                                             : iv_step(TMR_INDEX(ref), loop, 0));
      if (TMR_INDEX2(ref) != NULL_TREE)
        s = sum(s, iv_step(TMR_INDEX2(ref), loop, 0));
      return s;
    }
    case ARRAY_REF:
      return sum(ref_step(TREE_OPERAND(ref, 0), loop),
                 scaled(iv_step(TREE_OPERAND(ref, 1), loop, 0), array_ref_element_size(ref)));
    case COMPONENT_REF:
    case REALPART_EXPR:
    case IMAGPART_EXPR:
    case VIEW_CONVERT_EXPR:
      return ref_step(TREE_OPERAND(ref, 0), loop);
    default:
      return DECL_P(ref) ? 0 : kUnknownStep;
  }
}

/// Whether reference `ref` in innermost loop `loop` advances by a constant step of at most
/// kStreamStep bytes an iteration (0 included: the same address each time).
bool streams(tree ref, gimple*, class loop* loop)
{
  const long step = ref_step(ref, loop);
  return step != kUnknownStep && step >= -kStreamStep && step <= kStreamStep;
}

/// The kinds of the references of `fun`'s innermost loops: loads on a recurrence (their value
/// depends on a header PHI and the PHI's next value depends on them: p = p->next, an index loaded
/// from memory), and streams.
void find_ref_kinds(function* fun, RefKinds& kinds)
{
  if (optimize == 0 || !gimple_in_ssa_p(fun))
    return;
  const bool had_loops = loops_for_fn(fun) != nullptr;
  loop_optimizer_init(AVOID_CFG_MODIFICATIONS);
  for (auto loop : loops_list(fun, LI_ONLY_INNERMOST)) {
    if (loop->latch == nullptr)
      continue;
    const edge latch  = loop_latch_edge(loop);
    basic_block* body = get_loop_body(loop);
    for (unsigned i = 0; i < loop->num_nodes; ++i)
      for (gimple_stmt_iterator gsi = gsi_start_bb(body[i]); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple* stmt = gsi_stmt(gsi);
        if (!is_gimple_assign(stmt))
          continue;
        unsigned long k = 0;
        if (gimple_store_p(stmt) && streams(gimple_assign_lhs(stmt), stmt, loop))
          k |= kRefStream << 8;
        if (gimple_assign_load_p(stmt)) {
          if (streams(gimple_assign_rhs1(stmt), stmt, loop))
            k |= kRefStream;
          tree value = gimple_assign_lhs(stmt);
          for (gphi_iterator p = gsi_start_phis(loop->header); TREE_CODE(value) == SSA_NAME && !gsi_end_p(p); gsi_next(&p)) {
            tree res = gimple_phi_result(p.phi());
            if (virtual_operand_p(res))
              continue;
            hash_map<tree, Path> from_phi, to_latch;
            if (chain(value, res, loop, from_phi, 0).cycles > kNone &&
                chain(gimple_phi_arg_def(p.phi(), latch->dest_idx), value, loop, to_latch, 0).cycles > kNone) {
              k = (k & ~kRefStream) | kRefChain;
              break;
            }
          }
        }
        if (k != 0)
          kinds.put(stmt, k);
      }
    free(body);
  }
  if (!had_loops)
    loop_optimizer_finalize();
}

/// Whether the cache model sees reference `ref` (a load's source or a store's destination):
/// through a pointer, or in a global or addressable variable; not a bit-field.
bool seen_ref(tree ref)
{
  if (ref == NULL_TREE || TREE_CODE(ref) == BIT_FIELD_REF || TREE_CODE(ref) == WITH_SIZE_EXPR)
    return false;
  if (!REFERENCE_CLASS_P(ref) && !DECL_P(ref))
    return false;
  for (tree t = ref; handled_component_p(t); t = TREE_OPERAND(t, 0))
    if (TREE_CODE(t) == BIT_FIELD_REF || (TREE_CODE(t) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(t, 1))))
      return false;
  tree base = get_base_address(ref);
  if (base == NULL_TREE)
    return false;
  if (TREE_CODE(base) == MEM_REF || TREE_CODE(base) == TARGET_MEM_REF)
    return true;
  if (TREE_CODE(base) != VAR_DECL || DECL_HARD_REGISTER(base))
    return false;
  return is_global_var(base) || TREE_ADDRESSABLE(base);
}

/// One reference of a block: its memory operand and kind.
struct MemRef {
  tree ref;
  unsigned long flags;
};

/// The references of `bb` the cache model sees, in order (at most kMaxRefs).
void block_refs(basic_block bb, RefKinds& kinds, auto_vec<MemRef>& refs)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi) && refs.length() < kMaxRefs; gsi_next(&gsi)) {
    gimple* stmt = gsi_stmt(gsi);
    if (!is_gimple_assign(stmt) || stmt_ends_bb_p(stmt) || gimple_has_volatile_ops(stmt))
      continue;
    const unsigned long* k  = kinds.get(stmt);
    const unsigned long kind = k != nullptr ? *k : 0;
    if (gimple_store_p(stmt) && seen_ref(gimple_assign_lhs(stmt)))
      refs.safe_push(MemRef{gimple_assign_lhs(stmt), kRefStore | (kind >> 8)});
    if (gimple_assign_load_p(stmt) && seen_ref(gimple_assign_rhs1(stmt)) && refs.length() < kMaxRefs)
      refs.safe_push(MemRef{gimple_assign_rhs1(stmt), kind & 0xff});
  }
}

/// The address of reference `ref`, as an unsigned long (statements appended to `seq`).
tree ref_address(tree ref, gimple_seq* seq)
{
  tree addr = TREE_CODE(ref) == TARGET_MEM_REF ? tree_mem_ref_addr(ptr_type_node, ref)
                                               : build_fold_addr_expr(unshare_expr(ref));
  gimple_seq stmts = nullptr; // force_gimple_operand starts a sequence of its own
  tree value       = force_gimple_operand(fold_convert(long_unsigned_type_node, addr), &stmts, true, NULL_TREE);
  gimple_seq_add_seq(seq, stmts);
  return value;
}

/// The reports of `bb`'s references (see above), at its end (before a statement that ends it),
/// the test reading `mask` and `match`; the calls store and load the nest's locals (`c`) around them.
void instrument_memory(basic_block bb, RefKinds& ref_kinds, tree mask, tree match, const Counter& c)
{
  auto_vec<MemRef> refs;
  block_refs(bb, ref_kinds, refs);
  if (refs.is_empty())
    return;
  // The block ends after its last ordinary statement: what ends it goes on in a block of its own.
  gimple_stmt_iterator last = gsi_last_nondebug_bb(bb);
  if (!gsi_end_p(last) && stmt_ends_bb_p(gsi_stmt(last)))
    gsi_prev_nondebug(&last);
  basic_block rest = (gsi_end_p(last) ? split_block_after_labels(bb) : split_block(bb, gsi_stmt(last)))->dest;
  Seq s;
  auto_vec<tree> addresses;
  tree any = NULL_TREE;
  for (const MemRef& r : refs) {
    tree a = ref_address(r.ref, &s.seq);
    addresses.safe_push(a);
    tree hit = s.op(boolean_type_node, EQ_EXPR, s.op(long_unsigned_type_node, BIT_AND_EXPR, a, mask), match);
    any      = any == NULL_TREE ? hit : s.op(boolean_type_node, BIT_IOR_EXPR, any, hit);
  }
  s.branch(NE_EXPR, any, boolean_false_node);
  gimple_stmt_iterator end = gsi_last_bb(bb);
  if (gsi_end_p(end))
    gsi_insert_seq_after(&end, s.seq, GSI_NEW_STMT);
  else
    gsi_insert_seq_after(&end, s.seq, GSI_CONTINUE_LINKING);
  const profile_probability taken = profile_probability::unlikely();
  edge on                         = single_succ_edge(bb);
  on->flags                       = (on->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  on->probability                 = taken.invert();
  basic_block side                = create_empty_bb(EXIT_BLOCK_PTR_FOR_FN(cfun)->prev_bb);
  side->count                     = bb->count.apply_probability(taken);
  edge to_side                    = make_edge(bb, side, EDGE_TRUE_VALUE);
  to_side->probability            = taken;
  make_single_succ_edge(side, rest, EDGE_FALLTHRU);
  if (current_loops != nullptr)
    add_bb_to_loop(side, bb->loop_father);
  Seq calls;
  sync_locals(calls, c, false);
  for (unsigned i = 0; i < refs.length(); ++i)
    gimple_seq_add_stmt(&calls.seq, gimple_build_call(decls[kMemory], 2, addresses[i], ulong(refs[i].flags)));
  sync_locals(calls, c, true);
  gimple_stmt_iterator gsi = gsi_start_bb(side);
  gsi_insert_seq_after(&gsi, calls.seq, GSI_NEW_STMT);
}

/// The values the references' test reads, loaded at the function's entry (`mask`, `match`).
void load_memory_test(function* fun, tree mask, tree match)
{
  edge entry = single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun));
  gsi_insert_on_edge_immediate(entry, gimple_build_assign(match, decls[kMemoryMatch]));
  gsi_insert_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), gimple_build_assign(mask, decls[kMemoryMask]));
}

void instrument_with_calls(function* fun, WorkMap& work, FloorMap& floors, EnterMap& enters,
                           RefKinds* ref_kinds)
{
  auto_vec<basic_block> blocks;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
    blocks.safe_push(bb);
  tree mask = NULL_TREE, match = NULL_TREE;
  if (ref_kinds != nullptr) {
    mask  = make_ssa_name(long_unsigned_type_node);
    match = make_ssa_name(long_unsigned_type_node);
  }
  Counter memory;
  memory.left = decls[kLeft];
  for (basic_block b : blocks) {
    if (ref_kinds != nullptr)
      instrument_memory(b, *ref_kinds, mask, match, memory);
    insert_at_start(b, count_call(*work.get(b->index), floors.get(b->index), enters.get(b->index)));
  }
  if (ref_kinds != nullptr) {
    load_memory_test(fun, mask, match);
    free_dominance_info(fun, CDI_DOMINATORS);
    free_dominance_info(fun, CDI_POST_DOMINATORS);
  }
}

/// Whether `loop` (its inner loops too) may keep the counter in a register: it calls nothing (not
/// even the library: no block that leads into a loop with a floor), returns from nowhere inside,
/// and is left by ordinary edges only. `*header` is its one loop header with a floor, if one (else -1).
bool calls_nothing(const class loop* loop, FloorMap& floors, EnterMap& enters, int* header)
{
  if (loop->latch == nullptr)
    return false; // several latches
  basic_block* body = get_loop_body(loop);
  bool ok           = true;
  int headers       = 0;
  *header           = -1;
  for (unsigned i = 0; ok && i < loop->num_nodes; ++i) {
    basic_block bb = body[i];
    ok             = enters.get(bb->index) == nullptr;
    if (floors.get(bb->index) != nullptr) {
      ++headers;
      *header = bb->index;
    }
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); ok && !gsi_end_p(gsi); gsi_next(&gsi)) {
      const gimple* stmt = gsi_stmt(gsi);
      ok = !(is_gimple_call(stmt) && !gimple_call_internal_p(stmt)) && gimple_code(stmt) != GIMPLE_RETURN;
    }
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->succs)
      if ((e->flags & (EDGE_EH | EDGE_ABNORMAL)) != 0 || e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun))
        ok = false;
  }
  free(body);
  if (headers != 1)
    *header = -1;
  return ok;
}

/// A loop nest whose counter is local: its outermost loop and its one header with a floor (or -1).
struct Nest {
  class loop* loop;
  int header;
};
using BlockNest = hash_map<int_hash<int, -1, -2>, int>; ///< block index -> index in the nests

/// The outermost loops that call nothing, below `loop` (their blocks into `inside`).
void find_register_loops(class loop* loop, FloorMap& floors, EnterMap& enters, auto_vec<Nest>& found,
                         BlockNest& inside)
{
  for (class loop* l = loop->inner; l != nullptr; l = l->next) {
    int header;
    if (!calls_nothing(l, floors, enters, &header)) {
      find_register_loops(l, floors, enters, found, inside);
      continue;
    }
    basic_block* body = get_loop_body(l);
    for (unsigned i = 0; i < l->num_nodes; ++i)
      inside.put(body[i]->index, static_cast<int>(found.length()));
    free(body);
    found.safe_push(Nest{l, header});
  }
}

/// An edge into a nest (where its locals are loaded) or out of it (where they are stored back),
/// found before the blocks are split (splitting keeps the edges).
struct NestEdge {
  unsigned nest;
  edge e;
  bool into;
};

void loop_edges(unsigned nest, const class loop* loop, auto_vec<NestEdge>& edges)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, loop->header->preds)
    if (!flow_bb_inside_loop_p(loop, e->src))
      edges.safe_push(NestEdge{nest, e, true});
  for (edge x : get_loop_exit_edges(loop))
    edges.safe_push(NestEdge{nest, x, false});
}

/// The locals of each nest: the work left, and its header's runs and work.
void make_counters(const auto_vec<Nest>& nests, hash_map<int_hash<int, -1, -2>, tree>& slots, auto_vec<Counter>& counters)
{
  for (const Nest& n : nests) {
    Counter c;
    c.left = create_tmp_reg(long_integer_type_node, "shmemsim_left");
    if (n.header >= 0) {
      c.header = n.header;
      c.slot   = *slots.get(n.header);
      c.runs   = create_tmp_reg(long_unsigned_type_node, "shmemsim_runs");
      c.cost   = create_tmp_reg(long_unsigned_type_node, "shmemsim_cost");
    }
    counters.safe_push(c);
  }
}

/// Loads each nest's locals on the edges into it and stores them on the edges out of it.
void bracket_nests(const auto_vec<Counter>& counters, const auto_vec<NestEdge>& edges)
{
  for (const NestEdge& x : edges) {
    Seq s;
    sync_locals(s, counters[x.nest], x.into);
    gsi_insert_seq_on_edge(x.e, s.seq);
  }
}

/// Every block counts inline but those that lead into a loop with a floor (a call per loop
/// execution: it charges the last execution's chain). Returns whether locals were made (SSA to update).
bool instrument_inline(function* fun, WorkMap& work, FloorMap& floors, EnterMap& enters,
                       RefKinds& ref_kinds)
{
  auto_vec<basic_block> blocks;
  basic_block bb;
  FOR_EACH_BB_FN(bb, fun)
    blocks.safe_push(bb);
  hash_map<int_hash<int, -1, -2>, tree> slots;
  for (auto f : floors)
    slots.put(f.first, make_slot());
  const bool had_loops = loops_for_fn(fun) != nullptr;
  loop_optimizer_init(AVOID_CFG_MODIFICATIONS);
  auto_vec<Nest> nests;
  BlockNest inside;
  if (optimize > 0)
    find_register_loops(current_loops->tree_root, floors, enters, nests, inside);
  auto_vec<NestEdge> edges;
  for (unsigned i = 0; i < nests.length(); ++i)
    loop_edges(i, nests[i].loop, edges);
  auto_vec<Counter> counters;
  make_counters(nests, slots, counters);
  Counter memory;
  memory.left = decls[kLeft];
  tree fs    = make_ssa_name(long_unsigned_type_node); // read at the entry, before every count (below)
  tree mask  = make_ssa_name(long_unsigned_type_node); // likewise, the references' test
  tree match = make_ssa_name(long_unsigned_type_node);
  for (basic_block b : blocks) {
    const unsigned long n    = *work.get(b->index);
    const LoopFloor* floor   = floors.get(b->index);
    const LoopEntry* ent     = enters.get(b->index);
    const int* nest          = inside.get(b->index);
    const Counter& c         = nest != nullptr ? counters[*nest] : memory;
    instrument_memory(b, ref_kinds, mask, match, c);
    if (floor != nullptr)
      chain_inline(b, n, *floor, *slots.get(b->index), c);
    else if (ent != nullptr)
      enter_call(b, n, *ent, floors.get(ent->header), *work.get(ent->header), *slots.get(ent->header), fs);
    else
      count_inline(b, n, fs, c);
  }
  bracket_nests(counters, edges);
  gsi_commit_edge_inserts();
  gsi_insert_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), gimple_build_assign(fs, decls[kInstructionFs]));
  load_memory_test(fun, mask, match);
  free_dominance_info(fun, CDI_DOMINATORS);
  free_dominance_info(fun, CDI_POST_DOMINATORS);
  if (had_loops)
    loops_state_set(fun, LOOPS_NEED_FIXUP);
  else
    loop_optimizer_finalize();
  return !nests.is_empty();
}

class CountPass : public gimple_opt_pass {
public:
  explicit CountPass(gcc::context* ctxt) : gimple_opt_pass(kCountPassData, ctxt) {}
  opt_pass* clone() override { return new CountPass(m_ctxt); }
  bool gate(function*) override { return true; }

  unsigned int execute(function* fun) override
  {
    declare_all();
    basic_block bb;
    // Weigh every block first, then insert (so a count never counts another count).
    WorkMap work;
    FloorMap floors;
    EnterMap enters;
    FOR_EACH_BB_FN(bb, fun)
      work.put(bb->index, block_work(bb));
    find_loop_floors(fun, work, floors, enters);
    RefKinds ref_kinds;
    find_ref_kinds(fun, ref_kinds);
    bool new_local = false;
    if (!inline_ok(fun))
      instrument_with_calls(fun, work, floors, enters, nullptr); // no references: blocks with abnormal edges stay whole
    else if (calls_only)
      instrument_with_calls(fun, work, floors, enters, &ref_kinds);
    else
      new_local = instrument_inline(fun, work, floors, enters, ref_kinds);
    if (gimple_in_ssa_p(fun)) {
      mark_virtual_operands_for_renaming(fun);
      return new_local ? TODO_update_ssa : TODO_update_ssa_only_virtuals;
    }
    return 0;
  }
};

} // namespace

int plugin_init(struct plugin_name_args* info, struct plugin_gcc_version* version)
{
  if (!plugin_default_version_check(version, &gcc_version)) {
    fprintf(stderr, "shmemsim count plugin: built for GCC %s, this compiler is %s\n",
            gcc_version.basever, version->basever);
    return 1;
  }
  for (int i = 0; i < info->argc; ++i) {
    const char* value = info->argv[i].value != nullptr ? info->argv[i].value : "";
    if (strcmp(info->argv[i].key, "mode") == 0 && strcmp(value, "calls") == 0) {
      calls_only = true;
    } else if (strcmp(info->argv[i].key, "mode") != 0 || strcmp(value, "inline") != 0) {
      fprintf(stderr, "shmemsim count plugin: unknown argument '%s=%s' (use mode=inline or mode=calls)\n",
              info->argv[i].key, value);
      return 1;
    }
  }
  static plugin_info about = {"1", "shmemsim: counts each basic block's instructions for compute accounting"};
  register_callback(info->base_name, PLUGIN_INFO, nullptr, &about);
  register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, nullptr, const_cast<ggc_root_tab*>(kDeclRoots));
  register_pass_info pass;
  pass.pass                     = new CountPass(g);
  pass.reference_pass_name      = "optimized";
  pass.ref_pass_instance_number = 1;
  pass.pos_op                   = PASS_POS_INSERT_BEFORE;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &pass);
  return 0;
}
