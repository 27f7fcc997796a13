import torch
import torch.nn as nn
import torch.nn.functional as F


def batched_index_select(values, indices):
    last_dim = values.shape[-1]
    return values.gather(1, indices[:, :, None].expand(-1, -1, last_dim))


class LSHAttention(nn.Module):
    def __init__(self, bucket_size=4):
        super().__init__()
        self.bucket_size = bucket_size

    def hash_vectors(self, n_buckets, vecs):
        rotations = torch.randn(vecs.shape[-1], n_buckets // 2, generator=torch.Generator().manual_seed(1))
        rotated = vecs @ rotations
        return torch.cat([rotated, -rotated], dim=-1).argmax(dim=-1)

    def forward(self, qk, v, input_mask=None):
        batch_size, seqlen, dim = qk.shape
        n_buckets = seqlen // self.bucket_size
        buckets = self.hash_vectors(n_buckets, qk)
        ticker = torch.arange(seqlen).unsqueeze(0).expand_as(buckets)
        st = (seqlen * buckets + ticker).argsort(dim=-1)
        bq = batched_index_select(qk, st).reshape(batch_size, n_buckets, -1, dim)
        bv = batched_index_select(v, st).reshape(batch_size, n_buckets, -1, dim)
        bk = F.normalize(bq, p=2, dim=-1)
        dots = torch.einsum('bhie,bhje->bhij', bq, bk) * (dim ** -0.5)
        if input_mask is not None:
            mkv = input_mask.gather(1, st).reshape(batch_size, n_buckets, 1, -1)
            dots = dots.masked_fill(~mkv, -1e9)
        so = torch.einsum('bhij,bhje->bhie', dots.softmax(dim=-1), bv).reshape(batch_size, seqlen, dim)
        return torch.empty_like(so).scatter_(1, st[:, :, None].expand(-1, -1, dim), so), st


class LSHSelfAttention(nn.Module):
    def __init__(self, dim, heads, bucket_size=4):
        super().__init__()
        self.heads = heads
        self.toqk = nn.Linear(dim, dim, bias=False)
        self.tov = nn.Linear(dim, dim, bias=False)
        self.lsh_attn = LSHAttention(bucket_size)

    def forward(self, x, input_mask=None):
        b, t, e, h = *x.shape, self.heads
        merge_heads = lambda z: z.view(b, t, h, -1).transpose(1, 2).reshape(b * h, t, -1)
        qk, v = merge_heads(self.toqk(x)), merge_heads(self.tov(x))
        mask = input_mask
        out, st = self.lsh_attn(qk, v, input_mask=mask)
        return out.view(b, h, t, -1).transpose(1, 2).reshape(b, t, e), qk, v, st


if __name__ == "__main__":
    torch.manual_seed(0)
    attn = LSHSelfAttention(dim=32, heads=4, bucket_size=4)
    x = torch.randn(2, 16, 32)
    input_mask = torch.ones(2, 16, dtype=torch.bool)
    input_mask[1, 12:] = False
    with torch.no_grad():
        out, qk, v, st = attn(x, input_mask=input_mask)
    print("output:", tuple(out.shape))
