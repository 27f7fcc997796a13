import torch
import torch.nn as nn


class DocEncoderEmbeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_embeddings = nn.Embedding(21128, 32, padding_idx=0)
        self.position_embeddings = nn.Embedding(512, 32)
        self.norm = nn.LayerNorm(32)

    def forward(self, input_ids):
        seq_len = input_ids.size(1)
        position_ids = torch.arange(seq_len).unsqueeze(0).expand_as(input_ids)
        words = self.word_embeddings(input_ids)
        positions = self.position_embeddings(position_ids)
        return self.norm(words + positions)


def collate(docs, pad_id=0, max_len=512):
    docs = [d[:max_len] for d in docs]
    longest = max(len(d) for d in docs)
    batch = torch.full((len(docs), longest), pad_id, dtype=torch.long)
    for i, d in enumerate(docs):
        batch[i, : len(d)] = torch.tensor(d)
    return batch


def make_docs(lengths, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(1, 21128, (n,), generator=g).tolist() for n in lengths]


def reference(emb, doc_ids, longest):
    rows = []
    for p in range(longest):
        tok = doc_ids[p] if p < len(doc_ids) else 0
        v = emb.word_embeddings.weight[tok] + emb.position_embeddings.weight[p]
        rows.append(emb.norm(v))
    return torch.stack(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    emb = DocEncoderEmbeddings().eval()
    docs = make_docs([120, 388, 640])  # news articles for the generation task
    with torch.no_grad():
        out = emb(collate(docs))
        assert out.shape == (3, 512, 32)
        for i, d in enumerate(docs):
            assert torch.allclose(out[i], reference(emb, d[:512], 512), atol=1e-5)
    print("ok")
