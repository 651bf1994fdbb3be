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
#include "tree-phinodes.h"
#include "ssa-iterators.h"
#include "hash-map.h"
#include "hash-set.h"

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
/// Blocks that lead into a loop with a floor (from outside it), with that loop's identifier.
using EnterMap = hash_map<int_hash<int, -1, -2>, unsigned long>;

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
      enters.put(src->index, floor->id);
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

tree count_decl;       // void __shmemsim_count(unsigned long instructions)
tree count_enter_decl; // void __shmemsim_count_enter(unsigned long instructions, unsigned long loop)
tree count_loop_decl;  // void __shmemsim_count_chain(instructions, chain, divides, loop_instructions, loop)

tree declare(const char* name, int args)
{
  tree u    = long_unsigned_type_node;
  tree type = args == 1   ? build_function_type_list(void_type_node, u, NULL_TREE)
              : args == 2 ? build_function_type_list(void_type_node, u, u, NULL_TREE)
                          : build_function_type_list(void_type_node, u, u, u, u, u, NULL_TREE);
  tree decl = build_fn_decl(name, type);
  TREE_NOTHROW(decl)  = 1;
  DECL_EXTERNAL(decl) = 1;
  TREE_PUBLIC(decl)   = 1;
  return decl;
}

/// The call that counts a block: its instructions; for a loop header its loop's floor; for a
/// block that leads into a loop with a floor, that loop's identifier.
gcall* count_call(unsigned long instructions, const LoopFloor* floor, const unsigned long* enters)
{
  if (count_decl == NULL_TREE) {
    count_decl       = declare("__shmemsim_count", 1);
    count_enter_decl = declare("__shmemsim_count_enter", 2);
    count_loop_decl  = declare("__shmemsim_count_chain", 5);
  }
  tree u = long_unsigned_type_node;
  if (floor != nullptr)
    return gimple_build_call(count_loop_decl, 5, build_int_cst(u, instructions), build_int_cst(u, floor->chain),
                             build_int_cst(u, floor->divides), build_int_cst(u, floor->instructions),
                             build_int_cst(u, floor->id));
  if (enters != nullptr)
    return gimple_build_call(count_enter_decl, 2, build_int_cst(u, instructions), build_int_cst(u, *enters));
  return gimple_build_call(count_decl, 1, build_int_cst(u, instructions));
}

class CountPass : public gimple_opt_pass {
public:
  explicit CountPass(gcc::context* ctxt) : gimple_opt_pass(kCountPassData, ctxt) {}
  opt_pass* clone() override { return new CountPass(m_ctxt); }
  bool gate(function*) override { return true; }

  unsigned int execute(function* fun) override
  {
    basic_block bb;
    // Weigh every block first, then insert (so a count never counts another count call).
    WorkMap work;
    FloorMap floors;
    EnterMap enters;
    FOR_EACH_BB_FN(bb, fun)
      work.put(bb->index, block_work(bb));
    find_loop_floors(fun, work, floors, enters);
    FOR_EACH_BB_FN(bb, fun) {
      gcall* call = count_call(*work.get(bb->index), floors.get(bb->index), enters.get(bb->index));
      gimple_stmt_iterator gsi = gsi_after_labels(bb);
      gsi_insert_before(&gsi, call, GSI_SAME_STMT);
    }
    if (gimple_in_ssa_p(fun)) {
      mark_virtual_operands_for_renaming(fun);
      return TODO_update_ssa_only_virtuals;
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
  static plugin_info about = {"1", "shmemsim: counts each basic block's instructions for compute accounting"};
  register_callback(info->base_name, PLUGIN_INFO, nullptr, &about);
  register_pass_info pass;
  pass.pass                     = new CountPass(g);
  pass.reference_pass_name      = "optimized";
  pass.ref_pass_instance_number = 1;
  pass.pos_op                   = PASS_POS_INSERT_BEFORE;
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &pass);
  return 0;
}
