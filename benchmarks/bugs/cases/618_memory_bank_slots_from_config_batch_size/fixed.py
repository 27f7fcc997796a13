import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryBank(nn.Module):
    def __init__(self, size, dim, batch_size):
        super().__init__()
        self.batch_size = batch_size
        self.register_buffer("bank", F.normalize(torch.randn(size, dim), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def enqueue(self, keys):
        slots = (self.ptr + torch.arange(keys.shape[0])) % self.bank.shape[0]
        self.bank.index_copy_(0, slots, keys)
        self.ptr = (self.ptr + keys.shape[0]) % self.bank.shape[0]


def contrastive_logits(q, k, bank, tau=0.07):
    pos = (q * k).sum(dim=1, keepdim=True)
    neg = q @ bank.t()
    return torch.cat([pos, neg], dim=1) / tau


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Linear(32, 16)
    memory = MemoryBank(size=20, dim=16, batch_size=8)
    data = torch.randn(21, 32)
    ref = memory.bank.clone()
    ptr = 0
    for start in range(0, data.shape[0], 8):
        x = data[start:start + 8]
        q = F.normalize(encoder(x), dim=1)
        k = F.normalize(encoder(x + 0.01 * torch.randn_like(x)), dim=1).detach()
        logits = contrastive_logits(q, k, memory.bank)
        memory.enqueue(k)
        for r in range(k.shape[0]):
            ref[(ptr + r) % 20] = k[r]
        ptr = (ptr + k.shape[0]) % 20
        assert torch.equal(memory.bank, ref) and int(memory.ptr) == ptr
    print("ok")
