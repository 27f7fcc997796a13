import numpy as np
import torch
import torch.nn as nn


def random_indexes(size):
    # int32 keeps the per-sample permutation tables small (and is numpy's default int on Windows)
    forward_indexes = np.random.permutation(size).astype(np.int32)
    backward_indexes = np.argsort(forward_indexes).astype(np.int32)
    return forward_indexes, backward_indexes


def take_indexes(sequences, indexes):
    # sequences: (T, B, C), indexes: (T', B) -> (T', B, C)
    return torch.take_along_dim(sequences, indexes.unsqueeze(-1), dim=0)


class PatchShuffle(nn.Module):
    def __init__(self, ratio):
        super().__init__()
        self.ratio = ratio

    def forward(self, patches):
        # patches: (T, B, C)
        T, B, C = patches.shape
        remain_T = int(T * (1 - self.ratio))
        indexes = [random_indexes(T) for _ in range(B)]
        # (T, B) each
        forward_indexes = torch.as_tensor(np.stack([i[0] for i in indexes], axis=-1), dtype=torch.long).to(patches.device)
        backward_indexes = torch.as_tensor(np.stack([i[1] for i in indexes], axis=-1), dtype=torch.long).to(patches.device)
        patches = take_indexes(patches, forward_indexes)
        # keep the first remain_T shuffled patches: (remain_T, B, C)
        patches = patches[:remain_T]
        return patches, forward_indexes, backward_indexes


class MaskedEncoderStub(nn.Module):
    def __init__(self, image_size=32, patch_size=4, emb_dim=24, mask_ratio=0.75):
        super().__init__()
        self.patchify = nn.Conv2d(3, emb_dim, patch_size, patch_size)
        self.pos_embedding = nn.Parameter(torch.randn((image_size // patch_size) ** 2, 1, emb_dim) * 0.02)
        self.shuffle = PatchShuffle(mask_ratio)

    def forward(self, img):
        # img: (B, 3, H, W) -> patches (T, B, C)
        patches = self.patchify(img).flatten(2).permute(2, 0, 1)
        patches = patches + self.pos_embedding
        return self.shuffle(patches)


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    encoder = MaskedEncoderStub()
    img = torch.randn(2, 3, 32, 32)
    visible, fwd, bwd = encoder(img)
    with torch.no_grad():
        full = encoder.patchify(img).flatten(2).permute(2, 0, 1) + encoder.pos_embedding
        for b in range(2):
            for t in range(visible.size(0)):
                assert torch.allclose(visible[t, b], full[fwd[t, b], b])
            assert torch.equal(fwd[bwd[:, b], b], torch.arange(full.size(0)))
    print("ok")
