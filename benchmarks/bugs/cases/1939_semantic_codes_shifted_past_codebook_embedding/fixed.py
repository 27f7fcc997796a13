from dataclasses import dataclass

import torch
import torch.nn as nn

CODEBOOK_PAD_TOKEN_ID = 0
SEMANTIC_TOKEN_ID = 5


@dataclass
class ModelArgs:
    vocab_size: int = 64
    dim: int = 32
    codebook_size: int = 16
    num_codebooks: int = 4


@dataclass
class SemanticSample:
    text_ids: list
    codes: list  # one list of VQ indices per codebook, values in [0, codebook_size)


class TextSemanticPacker:
    """Packs prompt tokens and the VQ codes of every codebook into one tensor per sample."""

    def __init__(self, num_codebooks):
        self.num_codebooks = num_codebooks

    def pack(self, sample: SemanticSample):
        prompt_length = len(sample.text_ids)
        semantic_length = len(sample.codes[0])
        tokens = sample.text_ids + [SEMANTIC_TOKEN_ID] * semantic_length

        # Codebook bos/padding: 0
        codes = [[CODEBOOK_PAD_TOKEN_ID] * prompt_length for _ in range(self.num_codebooks)]
        for book_idx, book in enumerate(sample.codes[: self.num_codebooks]):
            for j in book:
                codes[book_idx].append(int(j))

        return torch.tensor([tokens] + codes, dtype=torch.long)


class DualEmbedding(nn.Module):
    def __init__(self, config: ModelArgs):
        super().__init__()
        self.config = config
        self.embeddings = nn.Embedding(config.vocab_size, config.dim)
        self.codebook_embeddings = nn.Embedding(config.codebook_size * config.num_codebooks, config.dim)

    def forward(self, x):
        vocab_embeds = [self.embeddings(x[:, 0])]
        for i in range(self.config.num_codebooks):
            emb = self.codebook_embeddings(x[:, i + 1] + i * self.config.codebook_size)
            emb[x[:, 0] != SEMANTIC_TOKEN_ID] = 0
            vocab_embeds.append(emb)
        x = torch.stack(vocab_embeds, dim=3)
        return x.sum(dim=3)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = ModelArgs()
    packer = TextSemanticPacker(config.num_codebooks)
    model = DualEmbedding(config)

    samples = []
    for _ in range(2):
        codes = torch.randint(0, config.codebook_size, (config.num_codebooks, 12))
        codes[-1, 3] = config.codebook_size - 1  # the largest code of the last codebook
        samples.append(SemanticSample(text_ids=[11, 23, 7, 42], codes=codes.tolist()))

    batch = torch.stack([packer.pack(s) for s in samples])
    with torch.no_grad():
        hidden = model(batch)

    # reference: plain loop over positions and codebooks
    ref = torch.zeros_like(hidden)
    with torch.no_grad():
        for b, s in enumerate(samples):
            for t in range(batch.shape[2]):
                ref[b, t] = model.embeddings.weight[batch[b, 0, t]]
                if t >= len(s.text_ids):
                    for i in range(config.num_codebooks):
                        code = s.codes[i][t - len(s.text_ids)]
                        ref[b, t] += model.codebook_embeddings.weight[i * config.codebook_size + code]
    assert torch.allclose(hidden, ref, atol=1e-6)
    print("ok")
