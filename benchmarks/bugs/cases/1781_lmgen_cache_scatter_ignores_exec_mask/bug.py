import torch


UNGENERATED = -2


def init_cache(batch_size, num_codebooks, context):
    # ring buffer of delayed tokens: [B, K, CT]
    return torch.full((batch_size, num_codebooks, context), UNGENERATED, dtype=torch.long)


def write_tokens(cache, offsets, tokens, exec_mask):
    # cache: [B, K, CT], offsets: [B], tokens: [B, K], exec_mask: [B] (bool)
    num_codebooks, context = cache.shape[1], cache.shape[2]
    positions = (offsets % context)[:, None, None]             # [B, 1, 1]
    positions = positions.expand(-1, num_codebooks, 1)         # [B, K, 1]
    values = tokens[:, :, None]                                # [B, K, 1]
    cache.scatter_(-1, positions, values)
    return cache


def lm_gen_step(cache, offsets, sampled, exec_mask):
    # paused streams (exec_mask False) keep their offset
    offsets = torch.where(exec_mask, offsets + 1, offsets)
    write_tokens(cache, offsets, sampled, exec_mask)
    return offsets


def reference_cache(batch_size, num_codebooks, context, samples, masks):
    cache = [[[UNGENERATED] * context for _ in range(num_codebooks)] for _ in range(batch_size)]
    offsets = [0] * batch_size
    for sampled, mask in zip(samples, masks):
        for b in range(batch_size):
            if not mask[b]:
                continue
            offsets[b] += 1
            for k in range(num_codebooks):
                cache[b][k][offsets[b] % context] = int(sampled[b, k])
    return torch.tensor(cache)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, num_codebooks, context, steps = 3, 4, 8, 6
    cache = init_cache(batch_size, num_codebooks, context)
    offsets = torch.zeros(batch_size, dtype=torch.long)
    samples, masks = [], []
    for t in range(steps):
        exec_mask = torch.tensor([True, t % 2 == 0, t < 2])
        sampled = torch.randint(0, 2048, (batch_size, num_codebooks))
        samples.append(sampled)
        masks.append(exec_mask)
        offsets = lm_gen_step(cache, offsets, sampled, exec_mask)
    ref = reference_cache(batch_size, num_codebooks, context, samples, masks)
    bad = (cache != ref)
    print("offsets after streaming:", offsets.tolist())
    print("cache entries differing from reference, per stream:", bad.sum(dim=(1, 2)).tolist())
    print("stream 2 last token (cache vs ref):", cache[2, 0, 2].item(), ref[2, 0, 2].item())
