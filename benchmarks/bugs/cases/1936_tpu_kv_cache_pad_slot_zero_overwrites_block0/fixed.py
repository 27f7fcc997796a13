import torch
import torch.nn as nn

_PAD_SLOT_ID = -1  # slot of padding tokens: their keys/values are not written


def write_to_kv_cache(key, value, k_cache, v_cache, slot_mapping):
    # XLA's index_copy_ drops index -1; eager PyTorch rejects it, so drop padding rows explicitly
    keep = slot_mapping >= 0
    k_cache.index_copy_(0, slot_mapping[keep], key[keep])
    v_cache.index_copy_(0, slot_mapping[keep], value[keep])


class PallasAttention(nn.Module):
    def __init__(self, hidden, num_heads, head_size, num_blocks, block_size):
        super().__init__()
        self.num_heads, self.head_size = num_heads, head_size
        self.qkv = nn.Linear(hidden, 3 * num_heads * head_size)
        self.register_buffer("k_cache", torch.zeros(num_blocks * block_size, num_heads, head_size))
        self.register_buffer("v_cache", torch.zeros(num_blocks * block_size, num_heads, head_size))

    def forward(self, hidden_states, slot_mapping):
        q, k, v = self.qkv(hidden_states).chunk(3, dim=-1)
        k = k.reshape(-1, self.num_heads, self.head_size)
        v = v.reshape(-1, self.num_heads, self.head_size)
        write_to_kv_cache(k, v, self.k_cache, self.v_cache, slot_mapping.flatten())
        return q


class TPUModelRunner:
    def __init__(self, model, embed, block_size, bucket):
        self.model, self.embed = model, embed
        self.block_size, self.bucket = block_size, bucket

    def _prepare_prompt(self, prompts, block_tables):
        input_tokens, slot_mapping = [], []
        for tokens, block_table in zip(prompts, block_tables):
            slots = [block_table[pos // self.block_size] * self.block_size + pos % self.block_size
                     for pos in range(len(tokens))]
            num_paddings = self.bucket - len(tokens)
            input_tokens.append(tokens + [0] * num_paddings)
            slot_mapping.append(slots + [_PAD_SLOT_ID] * num_paddings)
        return torch.tensor(input_tokens), torch.tensor(slot_mapping)

    @torch.no_grad()
    def prefill(self, prompts, block_tables):
        input_tokens, slot_mapping = self._prepare_prompt(prompts, block_tables)
        return self.model(self.embed(input_tokens), slot_mapping)


if __name__ == "__main__":
    torch.manual_seed(0)
    attn = PallasAttention(hidden=16, num_heads=2, head_size=4, num_blocks=4, block_size=4)
    embed = nn.Embedding(32, 16)
    runner = TPUModelRunner(attn, embed, block_size=4, bucket=8)
    prompts = [[5, 9, 3], [7, 2, 8, 4, 11, 6]]
    block_tables = [[0], [2, 3]]
    runner.prefill(prompts, block_tables)

    k_ref = torch.zeros_like(attn.k_cache)
    v_ref = torch.zeros_like(attn.v_cache)
    with torch.no_grad():
        for tokens, table in zip(prompts, block_tables):
            for pos, tok in enumerate(tokens):
                _, k, v = attn.qkv(embed.weight[tok]).chunk(3, dim=-1)
                slot = table[pos // 4] * 4 + pos % 4
                k_ref[slot] = k.reshape(2, 4)
                v_ref[slot] = v.reshape(2, 4)
    assert torch.allclose(attn.k_cache, k_ref, atol=1e-6)
    assert torch.allclose(attn.v_cache, v_ref, atol=1e-6)
    print("ok")
