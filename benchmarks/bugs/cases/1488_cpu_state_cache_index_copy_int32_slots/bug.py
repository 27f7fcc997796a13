from typing import List, Union

import torch
from jaxtyping import Float, Int
from torch import Tensor


class CpuMambaStateCache:
    """CPU-side cache of linear-attention states, so evicted requests can resume without recompute."""

    def __init__(self, size: int, layer_num: int, conv_dim: int, conv_width: int, ssm_dim: int):
        self.size = size
        # stack allocator of free CPU slots
        self.mem_state: Int[Tensor, "size"] = torch.arange(0, size, dtype=torch.int32)
        self.mark_start = 0
        self.conv_state_buffer: Float[Tensor, "layer size conv_dim width"] = torch.zeros(
            layer_num, size, conv_dim, conv_width
        )
        self.ssm_state_buffer: Float[Tensor, "layer size ssm_dim"] = torch.zeros(layer_num, size, ssm_dim)

    def alloc(self, need_size: int) -> Int[Tensor, "need"]:
        assert self.mark_start + need_size <= self.size, "CPU state cache is full"
        select = self.mem_state[self.mark_start : self.mark_start + need_size]
        self.mark_start += need_size
        return select

    def offload_to_cpu(
        self,
        gpu_conv_state: Float[Tensor, "layer buf conv_dim width"],
        gpu_ssm_state: Float[Tensor, "layer buf ssm_dim"],
        gpu_buffer_indexes: Union[List[int], Int[Tensor, "n"]],
        cpu_slot_indexes: Union[List[int], Int[Tensor, "n"]],
    ) -> None:
        if not isinstance(gpu_buffer_indexes, torch.Tensor):
            gpu_buffer_indexes = torch.tensor(gpu_buffer_indexes, dtype=torch.long)
        if not isinstance(cpu_slot_indexes, torch.Tensor):
            cpu_slot_indexes = torch.tensor(cpu_slot_indexes, dtype=torch.long)
        self.conv_state_buffer.index_copy_(1, cpu_slot_indexes, gpu_conv_state.index_select(1, gpu_buffer_indexes))
        self.ssm_state_buffer.index_copy_(1, cpu_slot_indexes, gpu_ssm_state.index_select(1, gpu_buffer_indexes))

    def load_to_gpu(
        self,
        gpu_conv_state: Float[Tensor, "layer buf conv_dim width"],
        gpu_ssm_state: Float[Tensor, "layer buf ssm_dim"],
        cpu_slot_indexes: Union[List[int], Int[Tensor, "n"]],
        gpu_buffer_indexes: Union[List[int], Int[Tensor, "n"]],
    ) -> None:
        if not isinstance(cpu_slot_indexes, torch.Tensor):
            cpu_slot_indexes = torch.tensor(cpu_slot_indexes, dtype=torch.long)
        if not isinstance(gpu_buffer_indexes, torch.Tensor):
            gpu_buffer_indexes = torch.tensor(gpu_buffer_indexes, dtype=torch.long)
        gpu_conv_state.index_copy_(1, gpu_buffer_indexes, self.conv_state_buffer.index_select(1, cpu_slot_indexes))
        gpu_ssm_state.index_copy_(1, gpu_buffer_indexes, self.ssm_state_buffer.index_select(1, cpu_slot_indexes))


if __name__ == "__main__":
    torch.manual_seed(0)
    layers, buf, conv_dim, width, ssm_dim = 2, 6, 8, 3, 16
    gpu_conv = torch.randn(layers, buf, conv_dim, width)
    gpu_ssm = torch.randn(layers, buf, ssm_dim)
    cache = CpuMambaStateCache(size=10, layer_num=layers, conv_dim=conv_dim, conv_width=width, ssm_dim=ssm_dim)

    evicted = [4, 1]                      # GPU buffer rows of the requests being paused
    slots = cache.alloc(len(evicted))     # CPU slots for them
    cache.offload_to_cpu(gpu_conv, gpu_ssm, evicted, slots)

    restored_conv = torch.zeros_like(gpu_conv)
    restored_ssm = torch.zeros_like(gpu_ssm)
    cache.load_to_gpu(restored_conv, restored_ssm, slots, [0, 5])
    print("restored rows equal:", torch.equal(restored_ssm[:, 0], gpu_ssm[:, 4]))
