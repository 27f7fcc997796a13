import torch


class RocmPlatform:
    device_type = "cpu"

    @classmethod
    def insert_blocks_to_device(cls, src_cache, dst_cache, src_block_indices, dst_block_indices):
        """Copy blocks from src_cache to dst_cache on the device."""
        _src_cache = src_cache[src_block_indices]
        dst_cache[dst_block_indices] = _src_cache.to(dst_cache.device)

    @classmethod
    def swap_out_blocks_to_host(cls, src_cache, dst_cache, src_block_indices, dst_block_indices):
        """Copy blocks from the device cache back to the host buffer."""
        _src_cache = src_cache[:, src_block_indices]
        dst_cache[:, dst_block_indices] = _src_cache.cpu()


class HostOffloadManager:
    def __init__(self, platform, device_caches, host_caches):
        self.platform = platform
        self.device_caches = device_caches
        self.host_caches = host_caches

    def load(self, host_block_ids, device_block_ids):
        src = torch.tensor(host_block_ids)
        dst = torch.tensor(device_block_ids)
        for name, device_cache in self.device_caches.items():
            self.platform.insert_blocks_to_device(self.host_caches[name], device_cache, src, dst)


if __name__ == "__main__":
    torch.manual_seed(0)
    device_caches = {f"model.layers.{i}.attn": torch.zeros(2, 32, 16, 2, 8) for i in range(2)}
    host_caches = {f"model.layers.{i}.attn": torch.randn(2, 12, 16, 2, 8) for i in range(2)}
    manager = HostOffloadManager(RocmPlatform, device_caches, host_caches)
    manager.load([3, 1, 0], [20, 4, 31])
    cache = device_caches["model.layers.0.attn"]
    print("device block 20 matches host block 3:", torch.equal(cache[:, 20], host_caches["model.layers.0.attn"][:, 3]))
