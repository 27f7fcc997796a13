import torch
import torch.nn as nn

IMAGE_TOKEN_ID = 7


def all_gather_along_seq(shards, dim):
    # shards: one [B, L / sp_size, ...] slice per sequence-parallel rank, rank order
    return torch.cat(shards, dim=dim)


def get_placeholder_mask(input_ids, inputs_embeds):
    # input_ids: [B, L]   inputs_embeds: [B, L, D]
    special_image_mask = (input_ids == IMAGE_TOKEN_ID).unsqueeze(-1)  # [B, L, 1]
    return special_image_mask.expand_as(inputs_embeds)


class ShardedVLMEmbedding(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)

    def forward(self, local_ids, image_embeds):
        # local_ids: sp_size x [B, L / sp_size]   image_embeds: [n_image_tokens, D]
        local_embeds = [self.embed_tokens(ids) for ids in local_ids]  # sp_size x [B, L / sp, D]
        inputs_embeds = all_gather_along_seq(local_embeds, dim=1)  # [B, L, D]
        input_ids = all_gather_along_seq(local_ids, dim=1)  # [B, L]
        mask = get_placeholder_mask(input_ids, inputs_embeds)
        return inputs_embeds.masked_scatter(mask, image_embeds.to(inputs_embeds.dtype))


if __name__ == "__main__":
    torch.manual_seed(0)
    sp_size, batch, seq_len, hidden = 2, 2, 8, 6
    ids = torch.randint(10, 40, (batch, seq_len))
    ids[0, 1:3] = IMAGE_TOKEN_ID
    ids[1, 5:7] = IMAGE_TOKEN_ID
    shards = list(ids.chunk(sp_size, dim=1))
    model = ShardedVLMEmbedding(40, hidden)
    image_embeds = torch.randn(4, hidden)
    out = model(shards, image_embeds)
    ref = model.embed_tokens(ids).clone()
    k = 0
    for b in range(batch):
        for t in range(seq_len):
            if ids[b, t] == IMAGE_TOKEN_ID:
                ref[b, t] = image_embeds[k]
                k += 1
    assert torch.allclose(out, ref)
    print("ok")
