import torch


def sample_mask_positions(attention_mask, num_to_mask):
    # attention_mask: [B, L] -> positions: [B, N], drawn proportional to the mask
    weights = attention_mask.float()
    return torch.multinomial(weights, num_to_mask, replacement=True)


def scatter_update(input_ids, positions, new_tokens):
    # input_ids: [B, L], positions: [B, N], new_tokens: [B, N]
    hits = torch.zeros_like(input_ids).scatter_add_(1, positions, torch.ones_like(positions))
    updates = torch.zeros_like(input_ids).scatter_add_(1, positions, new_tokens)
    return torch.where(hits > 0, updates, input_ids)


def corrupt_for_discriminator(input_ids, attention_mask, generator_logits, num_to_mask):
    positions = sample_mask_positions(attention_mask, num_to_mask)        # [B, N]
    pos_logits = generator_logits.gather(
        1, positions.unsqueeze(-1).expand(-1, -1, generator_logits.size(-1)))  # [B, N, V]
    sampled = pos_logits.argmax(dim=-1)                                     # [B, N]
    corrupted = scatter_update(input_ids, positions, sampled)               # [B, L]
    return corrupted, positions, sampled


if __name__ == "__main__":
    torch.manual_seed(3)
    B, L, V, N = 2, 12, 400, 6
    input_ids = torch.randint(5, V, (B, L))
    attention_mask = torch.ones(B, L, dtype=torch.long)
    gen_logits = torch.randn(B, L, V)
    corrupted, positions, sampled = corrupt_for_discriminator(input_ids, attention_mask, gen_logits, N)
    print("positions", positions.tolist())
    print("sampled  ", sampled.tolist())
    print("written  ", corrupted.gather(1, positions).tolist())
    print("max id", corrupted.max().item(), "vocab", V)
