#include "shmem_front/runtime/OpenMpSupport.hpp"

#include <algorithm>

namespace shmemsim::front {

int OpenMpSupport::default_threads() const
{
  return threads_per_pe_ > 0 ? threads_per_pe_ : pe_cores();
}

int OpenMpSupport::pe_cores() const
{
  const PeProcess& me = *threads_.current_pe();
  return std::max(1, program_cores_ / std::max(1, pes_.on_node(me.node)));
}

void OpenMpSupport::pe_exiting() const
{
  if (pe_exit_ != nullptr && threads_.current() != nullptr)
    pe_exit_();
}

} // namespace shmemsim::front
