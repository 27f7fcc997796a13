import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class CaptionDataset(Dataset):
    """Tokenised captions for the retrieval index.

    Args:
        captions: list of token-id lists, already padded to ``max_len``.

    Returns (per item):
        ids: ``(max_len,)`` token ids of one caption.
    """

    def __init__(self, captions, max_len):
        self.captions = captions
        self.max_len = max_len

    def __len__(self):
        return len(self.captions)

    def __getitem__(self, i):
        ids = self.captions[i][: self.max_len]
        return torch.Tensor(ids)


class BagOfEmbeddingsEncoder(nn.Module):
    """Mean of token embeddings.

    Args:
        ids: ``(batch, max_len)`` token ids, 0 = padding.

    Returns:
        ``(batch, dim)`` caption vectors.
    """

    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)

    def forward(self, ids):
        vecs = self.embed(ids)
        mask = (ids != 0).unsqueeze(-1).to(vecs.dtype)
        return (vecs * mask).sum(1) / mask.sum(1).clamp(min=1)


def encode_all(encoder, loader):
    out = []
    with torch.no_grad():
        for ids in loader:
            out.append(encoder(ids))
    return torch.cat(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    captions = [[5, 9, 12, 0], [7, 7, 3, 1], [2, 11, 0, 0]]
    loader = DataLoader(CaptionDataset(captions, max_len=4), batch_size=2)
    encoder = BagOfEmbeddingsEncoder(vocab_size=16, dim=8)
    index = encode_all(encoder, loader)
    print("index:", tuple(index.shape))
