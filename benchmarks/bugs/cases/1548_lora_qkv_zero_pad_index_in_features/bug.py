import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRAQKVLinear(nn.Module):
    """Fused QKV projection with LoRA on a subset of q, k and v."""

    def __init__(self, in_features, head_size, n_head, n_query_groups, r=4, lora_alpha=8, enable_lora=(True, False, True)):
        super().__init__()
        self.head_size, self.n_head, self.n_query_groups = head_size, n_head, n_query_groups
        out_features = head_size * (n_head + 2 * n_query_groups)
        self.linear = nn.Linear(in_features, out_features, bias=False)
        self.r, self.scaling, self.enable_lora = r, lora_alpha / r, enable_lora
        enable_q, enable_k, enable_v = enable_lora
        # head_size is set explicitly, so n_embd (in_features) need not equal head_size * n_head
        qkv_shapes = (head_size * n_head * enable_q, head_size * n_query_groups * enable_k, head_size * n_query_groups * enable_v)
        self.qkv_shapes = [s for s in qkv_shapes if s]
        self.lora_A = nn.Parameter(torch.randn(r * sum(enable_lora), in_features) * 0.1)  # (r * n_enabled, in)
        self.lora_B = nn.Parameter(torch.randn(sum(self.qkv_shapes), r) * 0.1)  # (q + v, r)

    @property
    def lora_ind(self):
        # positions of the enabled q/k/v columns inside the fused output
        enable_q, enable_k, enable_v = self.enable_lora
        kv_embd_size = self.linear.in_features // (self.n_head // self.n_query_groups)
        lora_ind = []
        if enable_q:
            lora_ind.extend(range(0, self.linear.in_features))
        if enable_k:
            lora_ind.extend(range(self.linear.in_features, self.linear.in_features + kv_embd_size))
        if enable_v:
            lora_ind.extend(range(self.linear.in_features + kv_embd_size, self.linear.out_features))
        return torch.tensor(lora_ind)

    def zero_pad(self, x):
        # x: (B, T, q + v) -> (B, T, q + k + v) with zeros in the k block
        if all(self.enable_lora):
            return x
        result = x.new_zeros(*x.shape[:-1], self.linear.out_features)  # (B, T, out_features)
        return result.index_copy_(dim=-1, index=self.lora_ind, source=x)

    def lora_delta(self, x):
        after_A = F.linear(x, self.lora_A)  # (B, T, r * n_enabled)
        parts = [F.linear(a, b) for a, b in zip(after_A.split(self.r, dim=-1), self.lora_B.split(self.qkv_shapes, dim=0))]
        return torch.cat(parts, dim=-1) * self.scaling  # (B, T, q + v)

    def forward(self, x):
        return self.linear(x) + self.zero_pad(self.lora_delta(x))


if __name__ == "__main__":
    torch.manual_seed(0)
    # n_embd = 64 but 4 heads of size 24 -> q block is 96 wide; 2 query groups -> k and v blocks 48 wide
    attn_qkv = LoRAQKVLinear(in_features=64, head_size=24, n_head=4, n_query_groups=2)
    x = torch.randn(2, 5, 64)
    y = attn_qkv(x)
    print("qkv:", tuple(y.shape))
