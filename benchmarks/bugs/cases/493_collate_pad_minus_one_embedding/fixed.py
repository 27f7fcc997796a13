import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

PAD = 0


def collate_tokens(batch):
    """Pads a list of variable-length id sequences.

    Args:
        batch: list of LongTensor, each of shape (L_i,).

    Returns:
        ids: LongTensor (B, L_max) padded with PAD.
        lengths: LongTensor (B,).
    """
    lengths = torch.tensor([len(x) for x in batch])
    ids = pad_sequence(batch, batch_first=True, padding_value=PAD)
    return ids, lengths


class BagEncoder(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=PAD)

    def forward(self, ids, lengths):
        """Mean of token embeddings.

        Args:
            ids: (B, L) token ids.
            lengths: (B,) true lengths.

        Returns:
            (B, D) sentence vectors.
        """
        vecs = self.embed(ids)  # (B, L, D)
        return vecs.sum(1) / lengths.unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    sentences = [torch.tensor([1, 2, 3]), torch.tensor([1, 4]), torch.tensor([2])]  # ids 1..4, 0 = pad
    ids, lengths = collate_tokens(sentences)
    enc = BagEncoder(vocab_size=5, dim=4)
    out = enc(ids, lengths)
    w = enc.embed.weight.tolist()
    for b, sent in enumerate(sentences):
        for d in range(4):
            ref = sum(w[t][d] for t in sent.tolist()) / len(sent)
            assert abs(out[b, d].item() - ref) < 1e-5
    print("ok")
