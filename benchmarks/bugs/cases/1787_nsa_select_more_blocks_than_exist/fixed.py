import torch
import torch.nn.functional as F
from torch import Tensor
from jaxtyping import Float


class FineSelection(torch.nn.Module):
    def __init__(self, selection_block_size=16, num_selected_blocks=4):
        super().__init__()
        self.selection_block_size = selection_block_size
        self.num_selected_blocks = num_selected_blocks

    def forward(
        self,
        q: Float[Tensor, "b h n d"],
        k: Float[Tensor, "b h n d"],
        v: Float[Tensor, "b h n d"],
    ) -> Float[Tensor, "b h n d"]:
        b, h, n, d = k.shape
        block = self.selection_block_size
        num_fine_blocks = n // block
        fk = k[:, :, : num_fine_blocks * block].reshape(b, h, num_fine_blocks, block, d)
        fv = v[:, :, : num_fine_blocks * block].reshape(b, h, num_fine_blocks, block, d)
        compressed_k = fk.mean(dim=3)                                   # b h w d
        importance = torch.einsum("bhid,bhjd->bhij", q, compressed_k)   # b h n w

        num_selected = min(self.num_selected_blocks, num_fine_blocks)
        selected_scores, selected_block_indices = importance.topk(num_selected, dim=-1)
        gates = selected_scores.softmax(dim=-1)                        # b h n sel

        idx = selected_block_indices[..., None, None].expand(-1, -1, -1, -1, block, d)
        sel_k = fk[:, :, None].expand(-1, -1, n, -1, -1, -1).gather(3, idx)  # b h n sel blk d
        sel_v = fv[:, :, None].expand(-1, -1, n, -1, -1, -1).gather(3, idx)
        sim = torch.einsum("bhid,bhisjd->bhisj", q, sel_k) * d ** -0.5
        attn = sim.softmax(dim=-1)
        out = torch.einsum("bhisj,bhisjd->bhisd", attn, sel_v)
        return (out * gates[..., None]).sum(dim=3)


def reference(q, k, v, block, num_selected):
    b, h, n, d = k.shape
    w = n // block
    out = torch.zeros_like(q)
    for bi in range(b):
        for hi in range(h):
            blocks_k = [k[bi, hi, j * block:(j + 1) * block] for j in range(w)]
            blocks_v = [v[bi, hi, j * block:(j + 1) * block] for j in range(w)]
            for i in range(n):
                scores = torch.stack([q[bi, hi, i] @ bk.mean(0) for bk in blocks_k])
                top, ids = scores.topk(min(num_selected, w))
                gates = top.softmax(-1)
                for g, j in zip(gates, ids.tolist()):
                    a = F.softmax(blocks_k[j] @ q[bi, hi, i] * d ** -0.5, dim=-1)
                    out[bi, hi, i] += g * (a @ blocks_v[j])
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    attn = FineSelection(selection_block_size=16, num_selected_blocks=4)
    tokens = 40  # short prompt: only 2 full selection blocks
    q, k, v = (torch.randn(1, 2, tokens, 8) for _ in range(3))
    out = attn(q, k, v)
    ref = reference(q, k, v, 16, 4)
    assert torch.allclose(out, ref, atol=1e-5), (out - ref).abs().max()
    print("ok")
