// Teams (OpenSHMEM 1.5 §9.4): predefined SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED, queries,
// translation, strided and 2D splits (collective over the parent), team contexts, destroy.
// The reserved-heap slot layout and the signalling discipline are described in coll_team.hpp.
#include "shmem_front/lib/Sync.hpp"
#include "shmem_front/lib/coll_team.hpp"

#include <algorithm>

using namespace shmemsim::front;

namespace shmemsim::front {

namespace {

struct PerPe {
  const Runtime* runtime = nullptr;
  std::unique_ptr<TeamState> state;
};
std::vector<PerPe> g_states;

std::unique_ptr<shmemsim_team> make_team(PeList members, int slot, bool predefined)
{
  auto t        = std::make_unique<shmemsim_team>();
  t->owner      = rt().my_pe();
  t->members    = std::move(members);
  t->me         = t->members.index_of(t->owner);
  t->slot       = slot;
  t->predefined = predefined;
  return t;
}

} // namespace

TeamState& team_state()
{
  const int me = rt().my_pe();
  if (g_states.size() < static_cast<std::size_t>(rt().n_pes()))
    g_states.resize(static_cast<std::size_t>(rt().n_pes()));
  PerPe& slot      = g_states[static_cast<std::size_t>(me)];
  const void* peid = &pe_state();
  if (!slot.state || slot.runtime != env().runtime || slot.state->owner_pe != peid) {
    slot.state           = std::make_unique<TeamState>();
    slot.state->owner_pe = peid;
    slot.runtime         = env().runtime;
  }
  return *slot.state;
}

std::uint64_t* slot_words(int slot)
{
  return reinterpret_cast<std::uint64_t*>(static_cast<char*>(rt().heap_base()) + kWorldBarrierBytes +
                                          static_cast<std::size_t>(slot) * kSlotBytes);
}

shmemsim_team* resolve_team(const Entry& e, shmem_team_t team)
{
  if (team == SHMEM_TEAM_INVALID)
    return nullptr;
  TeamState& s = team_state();
  if (team == SHMEM_TEAM_WORLD) {
    if (!s.world) {
      s.world = make_team(PeList::strided(0, 1, rt().n_pes()), kWorldSlot, true);
    }
    return s.world.get();
  }
  if (team == SHMEM_TEAM_SHARED) {
    if (!s.shared) {
      // The PEs whose memory this PE can load/store: exactly those of its node (shmem_ptr).
      std::vector<int> node;
      for (int pe = 0; pe < rt().n_pes(); ++pe)
        if (pe == rt().my_pe() || rt().local_address(rt().heap_base(), pe) != nullptr)
          node.push_back(pe);
      s.shared = make_team(PeList::listed(std::move(node)), kSharedSlot, true);
    }
    return s.shared.get();
  }
  auto it = s.teams.find(team);
  if (it == s.teams.end())
    e.fail("team " + hex(team) + " is not a team of this PE (destroyed, or not a team handle)");
  return it->second.get();
}

Group team_group(const Entry& e, shmemsim_team* t)
{
  Group g;
  g.members   = &t->members;
  g.me        = t->me;
  g.words     = slot_words(t->slot);
  g.any_calls = &t->any_calls;
  g.routine   = e.routine();
  return g;
}

shmem_team_t ctx_team(shmem_ctx_t ctx)
{
  TeamState& s = team_state();
  auto it      = s.ctx_team.find(ctx);
  return it == s.ctx_team.end() ? SHMEM_TEAM_WORLD : it->second;
}

} // namespace shmemsim::front

namespace {

void apply_config(shmemsim_team* t, const shmem_team_config_t* config, long mask)
{
  if (config != nullptr && (mask & SHMEM_TEAM_NUM_CONTEXTS) != 0)
    t->num_contexts = config->num_contexts;
}

/// Collective over `parent`: agree on a reserved-heap slot free on every parent member, and
/// make the team of `members` (world PEs, in team order) on the PEs that belong to it. Every
/// parent member gets the same `ok`. Returns the new handle, or SHMEM_TEAM_INVALID.
shmem_team_t split(const Entry& e, shmemsim_team* parent, PeList members, const shmem_team_config_t* config, long mask,
                   bool& ok)
{
  TeamState& s    = team_state();
  Group g         = team_group(e, parent);
  const auto used = group_or(g, s.used_slots);
  int slot        = -1;
  for (int i = kFirstUserSlot; i < kSlots; ++i)
    if ((used & (1u << i)) == 0) {
      slot = i;
      break;
    }
  ok = slot >= 0;
  if (!ok) {
    debug(e, "no free team slot (" + std::to_string(kSlots - kFirstUserSlot) + " teams at most)");
    return SHMEM_TEAM_INVALID;
  }
  if (!members.contains(rt().my_pe()))
    return SHMEM_TEAM_INVALID;
  const std::size_t size = members.size();
  auto t                 = make_team(std::move(members), slot, false);
  apply_config(t.get(), config, mask);
  s.used_slots |= 1u << slot;
  shmemsim_team* handle = t.get();
  s.teams.emplace(handle, std::move(t));
  debug(e, "team " + hex(handle) + " of " + std::to_string(size) + " PEs in slot " + std::to_string(slot));
  return handle;
}

} // namespace

extern "C" {

int shmem_team_my_pe(shmem_team_t team)
{
  Entry e("shmem_team_my_pe");
  shmemsim_team* t = resolve_team(e, team);
  return t == nullptr ? -1 : t->me;
}

int shmem_team_n_pes(shmem_team_t team)
{
  Entry e("shmem_team_n_pes");
  shmemsim_team* t = resolve_team(e, team);
  return t == nullptr ? -1 : static_cast<int>(t->members.size());
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config)
{
  Entry e("shmem_team_get_config");
  shmemsim_team* t = resolve_team(e, team);
  if (t == nullptr)
    return -1;
  if (config == nullptr)
    e.fail("config is NULL");
  if ((config_mask & SHMEM_TEAM_NUM_CONTEXTS) != 0)
    config->num_contexts = t->num_contexts;
  return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
  Entry e("shmem_team_translate_pe");
  shmemsim_team* src  = resolve_team(e, src_team);
  shmemsim_team* dest = resolve_team(e, dest_team);
  if (src == nullptr || dest == nullptr || src_pe < 0 || src_pe >= static_cast<int>(src->members.size()))
    return -1;
  const int world = src->members[static_cast<std::size_t>(src_pe)];
  return dest->members.index_of(world);
}

void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe)
{
  Entry e("shmem_team_ptr");
  shmemsim_team* t = resolve_team(e, team);
  if (t == nullptr)
    return nullptr; // SHMEM_TEAM_INVALID
  const int n = static_cast<int>(t->members.size());
  if (pe < 0 || pe >= n)
    e.fail("PE " + std::to_string(pe) + " is not a PE of the team (0.." + std::to_string(n - 1) + ")");
  if (!rt().is_symmetric(dest, 1))
    return nullptr;
  // Like shmem_ptr on the member's world PE: an address only for PEs of the caller's node.
  return rt().local_address(dest, t->members[static_cast<std::size_t>(pe)]);
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team)
{
  Entry e("shmem_team_split_strided");
  if (new_team == nullptr)
    e.fail("new_team is NULL");
  *new_team             = SHMEM_TEAM_INVALID;
  shmemsim_team* parent = resolve_team(e, parent_team);
  if (parent == nullptr)
    return -1;
  const long n    = static_cast<long>(parent->members.size());
  const long last = static_cast<long>(start) + static_cast<long>(size - 1) * stride;
  if (size < 1 || start < 0 || start >= n || last < 0 || last >= n || (stride == 0 && size != 1)) {
    debug(e, "invalid triplet (start " + std::to_string(start) + ", stride " + std::to_string(stride) + ", size " +
                 std::to_string(size) + ") for a parent of " + std::to_string(n) + " PEs");
    return -1; // the same on every parent member: no communication needed
  }
  std::vector<int> members;
  for (int i = 0; i < size; ++i)
    members.push_back(parent->members[static_cast<std::size_t>(start + static_cast<long>(i) * stride)]);
  bool ok   = false;
  *new_team = split(e, parent, PeList::listed(std::move(members)), config, config_mask, ok);
  return ok ? 0 : -1;
}

int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config, long xaxis_mask,
                        shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config, long yaxis_mask,
                        shmem_team_t* yaxis_team)
{
  Entry e("shmem_team_split_2d");
  if (xaxis_team == nullptr || yaxis_team == nullptr)
    e.fail("xaxis_team or yaxis_team is NULL");
  *xaxis_team           = SHMEM_TEAM_INVALID;
  *yaxis_team           = SHMEM_TEAM_INVALID;
  shmemsim_team* parent = resolve_team(e, parent_team);
  if (parent == nullptr || xrange <= 0)
    return -1;
  const int n = static_cast<int>(parent->members.size());
  if (xrange > n)
    xrange = n;
  const int p = parent->me;
  const int x = p % xrange, y = p / xrange;
  std::vector<int> row, column;
  for (int i = y * xrange; i < std::min(n, (y + 1) * xrange); ++i)
    row.push_back(parent->members[static_cast<std::size_t>(i)]);
  for (int i = x; i < n; i += xrange)
    column.push_back(parent->members[static_cast<std::size_t>(i)]);
  bool okx = false, oky = false;
  *xaxis_team = split(e, parent, PeList::listed(std::move(row)), xaxis_config, xaxis_mask, okx);
  *yaxis_team = split(e, parent, PeList::listed(std::move(column)), yaxis_config, yaxis_mask, oky);
  return okx && oky ? 0 : -1;
}

void shmem_team_destroy(shmem_team_t team)
{
  std::vector<shmem_ctx_t> contexts;
  {
    Entry e("shmem_team_destroy");
    shmemsim_team* t = resolve_team(e, team);
    if (t == nullptr)
      return; // SHMEM_TEAM_INVALID: no operation
    if (t->predefined)
      e.fail(std::string(team == SHMEM_TEAM_WORLD ? "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED") +
             " is a predefined team and cannot be destroyed");
    // Collective: once every member is here, no signal for this team is in flight any more and
    // the slot's words are all back to zero, so the slot can be reused.
    Group g = team_group(e, t);
    group_sync(g);
    tp().offloaded_release(t->members, t->me); // the NICs' resources for the member list, once all have left
    TeamState& s = team_state();
    for (auto it = s.ctx_team.begin(); it != s.ctx_team.end();)
      if (it->second == team) {
        if (e.pe().is_live(it->first)) // not destroyed by the program already
          contexts.push_back(it->first);
        it = s.ctx_team.erase(it);
      } else {
        ++it;
      }
    s.used_slots &= ~(1u << t->slot);
    s.teams.erase(t);
  }
  // Contexts made from the team go with it (quiet, then destroy), in the order they were made.
  for (shmem_ctx_t c : in_creation_order(contexts))
    shmem_ctx_destroy(c);
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx)
{
  {
    Entry e("shmem_team_create_ctx");
    if (ctx == nullptr)
      e.fail("ctx is NULL");
    if (resolve_team(e, team) == nullptr) {
      *ctx = SHMEM_CTX_INVALID;
      return -1;
    }
  }
  const int rc = shmem_ctx_create(options, ctx);
  if (rc == 0 && team != SHMEM_TEAM_WORLD) {
    Entry e("shmem_team_create_ctx");
    team_state().ctx_team[*ctx] = team;
  }
  return rc;
}

} // extern "C"
