import torch


def take_indexes(sequences, indexes):
    # sequences: (T, B, C), indexes: (T', B) -> (T', B, C)
    return torch.gather(sequences, 0, indexes.unsqueeze(-1).expand(-1, -1, sequences.shape[-1]))


def patch_shuffle(patches, mask_ratio, generator):
    # patches: (T, B, C)
    T, B, C = patches.shape
    remain_T = int(T * (1 - mask_ratio))
    forward_indexes = torch.stack([torch.randperm(T, generator=generator) for _ in range(B)], dim=-1)  # (T, B)
    backward_indexes = torch.argsort(forward_indexes, dim=0)  # (T, B)
    patches = take_indexes(patches, forward_indexes)[:remain_T]  # (remain_T, B, C)
    return patches, forward_indexes, backward_indexes


def decoder_mask(features, backward_indexes, patch_dim):
    # features: (1 + remain_T, B, C) -- cls token is row 0
    # backward_indexes: (T, B)
    T = features.shape[0]
    mask = torch.zeros(backward_indexes.shape[0], features.shape[1], patch_dim)  # (T, B, p*p*3)
    mask[T - 1:] = 1
    mask = take_indexes(mask, backward_indexes)  # (T, B, p*p*3), back in image order
    return mask


def encode(patches, cls_token, mask_ratio, generator):
    visible, forward_indexes, backward_indexes = patch_shuffle(patches, mask_ratio, generator)
    features = torch.cat([cls_token.expand(-1, visible.shape[1], -1), visible], dim=0)  # (1 + remain_T, B, C)
    return features, forward_indexes, backward_indexes


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    num_patches, batch, emb_dim, patch_dim = 16, 2, 8, 12
    mask_ratio = 0.75
    patches = torch.randn(num_patches, batch, emb_dim)
    cls_token = torch.zeros(1, 1, emb_dim)
    features, forward_indexes, backward_indexes = encode(patches, cls_token, mask_ratio, gen)
    mask = decoder_mask(features, backward_indexes, patch_dim)
    remain_T = int(num_patches * (1 - mask_ratio))
    ref = torch.zeros(num_patches, batch)
    for b in range(batch):
        for t in range(remain_T, num_patches):
            ref[int(forward_indexes[t, b]), b] = 1.0
    assert torch.equal(mask[:, :, 0], ref)
    assert torch.equal(mask, ref.unsqueeze(-1).expand_as(mask))
    print("ok")
