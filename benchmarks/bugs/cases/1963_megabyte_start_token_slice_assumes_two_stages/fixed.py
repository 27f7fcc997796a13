import math
from itertools import zip_longest

import torch
import torch.nn.functional as F
from torch import nn

# helpers

def exists(val):
    return val is not None

def cast_tuple(t, length = 1):
    return t if isinstance(t, tuple) else ((t,) * length)

def reduce_mult(nums):
    return math.prod(nums)

def remainder_to_mult(num, mult):
    return (mult - num % mult) % mult

def pack_one(t):
    # '* n d'
    lead = t.shape[:-2]
    return t.reshape(-1, *t.shape[-2:]), lead

def unpack_one(t, lead):
    return t.reshape(*lead, *t.shape[-2:])

# transformer

class CausalBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first = True)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        n = x.shape[-2]
        causal = torch.ones(n, n, dtype = torch.bool).triu(1)
        h = self.norm1(x)
        x = x + self.attn(h, h, h, attn_mask = causal, need_weights = False)[0]
        return x + self.ff(self.norm2(x))

class Transformer(nn.Module):
    def __init__(self, *, dim, layers, heads = 2):
        super().__init__()
        self.layers = nn.ModuleList([CausalBlock(dim, heads) for _ in range(layers)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        for block in self.layers:
            x = block(x)
        return self.norm(x)

class PatchEmbed(nn.Module):
    def __init__(self, dim_in, dim_out, seq_len):
        super().__init__()
        self.norm_in = nn.LayerNorm(seq_len * dim_in)
        self.proj = nn.Linear(seq_len * dim_in, dim_out)
        self.norm_out = nn.LayerNorm(dim_out)

    def forward(self, x):
        x = x.reshape(*x.shape[:-2], -1)   # '... r d -> ... (r d)'
        return self.norm_out(self.proj(self.norm_in(x)))

class NextStageProj(nn.Module):
    def __init__(self, h_dim, next_h_dim, next_seq_len):
        super().__init__()
        self.next_seq_len = next_seq_len
        self.proj = nn.Linear(h_dim, next_h_dim * next_seq_len)

    def forward(self, x):
        x = self.proj(x)
        return x.reshape(-1, self.next_seq_len, x.shape[-1] // self.next_seq_len)   # '... (n d) -> (...) n d'

# main class

class MEGABYTE(nn.Module):
    def __init__(
        self,
        *,
        num_tokens,
        dim,
        depth,
        max_seq_len,
        pad_id = 0
    ):
        super().__init__()

        # simplified configuration for each stage of the hierarchy
        # depth = (2, 2, 4) would translate to depth 2 at first stage, depth 2 second stage, depth 4 third
        # max_seq_len = (16, 8, 4) would translate to max sequence length of 16 at first stage, length of 8 at second stage, length of 4 for last

        assert isinstance(depth, tuple) and isinstance(max_seq_len, tuple)
        assert len(depth) == len(max_seq_len)

        self.stages = len(depth)
        dim = cast_tuple(dim, self.stages)

        coarsest_dim, *_, fine_dim = dim

        self.token_emb = nn.Embedding(num_tokens, fine_dim)

        self.max_seq_len = max_seq_len

        self.start_tokens = nn.ParameterList([nn.Parameter(torch.randn(h_dim)) for h_dim in dim])
        self.pos_embs = nn.ModuleList([nn.Embedding(seq_len, h_dim) for h_dim, seq_len in zip(dim, max_seq_len)])

        self.patch_embedders = nn.ModuleList([
            PatchEmbed(dim_in, dim_out, seq_len) for dim_in, dim_out, seq_len in zip(dim[1:], dim[:-1], max_seq_len[1:])
        ])

        self.transformers = nn.ModuleList([])
        self.to_next_transformer_projections = nn.ModuleList([])

        for h_dim, next_h_dim, stage_depth, next_seq_len in zip_longest(dim, dim[1:], depth, max_seq_len[1:]):
            self.transformers.append(Transformer(dim = h_dim, layers = stage_depth))

            proj = nn.Identity()
            if exists(next_h_dim):
                proj = NextStageProj(h_dim, next_h_dim, next_seq_len)

            self.to_next_transformer_projections.append(proj)

        self.to_logits = nn.Linear(fine_dim, num_tokens)
        self.pad_id = pad_id

    def forward(self, ids, return_loss = False):
        batch = ids.shape[0]

        assert ids.ndim in {2, self.stages + 1}
        flattened_dims = ids.ndim == 2

        if flattened_dims:
            # allow for ids to be given in the shape of (batch, seq)
            # in which case it will be auto-padded to the next nearest multiple of depth seq len
            seq_len = ids.shape[-1]
            multiple_of = reduce_mult(self.max_seq_len[1:])
            padding = remainder_to_mult(seq_len, multiple_of)
            ids = F.pad(ids, (0, padding), value = self.pad_id)
            ids = ids.reshape(batch, -1, *self.max_seq_len[1:])

        b, *prec_dims = ids.shape

        assert prec_dims[0] <= self.max_seq_len[0]
        assert tuple(prec_dims[1:]) == tuple(self.max_seq_len[1:])

        # get token embeddings

        tokens = self.token_emb(ids)

        # get tokens for all hierarchical stages, reducing by appropriate dimensions
        # and adding the absolute positional embeddings

        tokens_at_stages = []
        reduced_tokens = tokens

        for ind, pos_emb, patch_emb in zip(range(len(prec_dims)), reversed(self.pos_embs), reversed((*self.patch_embedders, None))):
            is_first = ind == 0

            if not is_first:
                reduced_tokens = patch_emb(reduced_tokens)

            positions = pos_emb(torch.arange(reduced_tokens.shape[-2]))
            tokens_with_position = reduced_tokens + positions
            tokens_at_stages.insert(0, tokens_with_position)

        # the un-pixelshuffled representations of the previous hierarchy, starts with None

        prev_stage_tokens_repr = None

        for stage_start_tokens, stage_tokens, transformer, proj in zip(self.start_tokens, tokens_at_stages, self.transformers, self.to_next_transformer_projections):
            stage_tokens, ps = pack_one(stage_tokens)

            stage_start_tokens = stage_start_tokens.expand(stage_tokens.shape[0], 1, -1)

            # concat start token

            stage_tokens = torch.cat((
                stage_start_tokens,
                stage_tokens,
            ), dim = -2)

            # sum the previous hierarchy's representation

            if exists(prev_stage_tokens_repr):
                prev_stage_tokens_repr = F.pad(prev_stage_tokens_repr, (0, 0, 1, 0), value = 0.)
                stage_tokens = stage_tokens + prev_stage_tokens_repr

            attended = transformer(stage_tokens)

            attended = unpack_one(attended, ps)

            # project for next stage in the hierarchy

            prev_stage_tokens_repr = proj(attended[..., :-1, :])

        # project to logits

        logits = self.to_logits(attended)

        start_tokens = logits[(slice(None), *((0,) * (logits.ndim - 2)), slice(None))]
        start_tokens = start_tokens.unsqueeze(1)

        logits = logits[..., 1:, :]

        if not return_loss:

            if flattened_dims:
                logits = logits.reshape(batch, -1, logits.shape[-1])
                logits = logits[:, :seq_len]

            return logits

        logits = logits.reshape(batch, -1, logits.shape[-1])
        logits = torch.cat((start_tokens, logits), dim = -2)

        preds = logits.transpose(1, 2)
        labels = ids.reshape(batch, -1)

        loss = F.cross_entropy(
            preds[..., :-1],
            labels,
            ignore_index = self.pad_id
        )

        return loss


if __name__ == "__main__":
    torch.manual_seed(0)

    # three-level hierarchy: 4 global patches of 2 x 2 bytes
    model = MEGABYTE(
        num_tokens = 256,
        dim = (48, 32, 16),
        depth = (1, 1, 1),
        max_seq_len = (4, 2, 2),
    )

    ids = torch.randint(1, 256, (2, 4, 2, 2))

    captured = {}
    model.to_logits.register_forward_hook(lambda mod, inp, out: captured.__setitem__("logits", out))
    loss = model(ids, return_loss = True)

    # reference: walk the (4, 2, 2) grid in byte order; the byte at flat position t is
    # predicted by the start-token output for t = 0 and by the output just before it otherwise
    full = captured["logits"]            # (2, 4, 2, 3, 256): one extra start slot in the last stage
    total, count = 0.0, 0
    for b in range(2):
        seq = [full[b, 0, 0, 0]]
        for i in range(4):
            for j in range(2):
                for k in range(2):
                    seq.append(full[b, i, j, k + 1])
        flat_ids = ids[b].reshape(-1).tolist()
        for t, target in enumerate(flat_ids):
            total += -torch.log_softmax(seq[t], dim = -1)[target].item()
            count += 1
    assert abs(loss.item() - total / count) < 1e-4, (loss.item(), total / count)

    # the two-stage layout still works
    small = MEGABYTE(num_tokens = 256, dim = (32, 16), depth = (1, 1), max_seq_len = (4, 4))
    assert small(torch.randint(1, 256, (2, 4, 4)), return_loss = True).ndim == 0
    print("ok")
