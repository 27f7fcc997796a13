import torch
import torch.nn as nn

PAD = 0


def normalize_segments(visit_ids):
    # factorize visit ids per patient into consecutive segment numbers
    segments = []
    for visits in visit_ids:
        order = {}
        segments.append([order.setdefault(v, len(order)) for v in visits])
    return segments


def pad_batch(rows, length):
    out = torch.full((len(rows), length), PAD, dtype=torch.long)
    for i, r in enumerate(rows):
        out[i, :len(r)] = torch.tensor(r)
    return out


class EhrEmbeddings(nn.Module):
    def __init__(self, vocab_size, max_segments, hidden_size):
        super().__init__()
        self.concept_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=PAD)
        self.segment_embeddings = nn.Embedding(max_segments, hidden_size, padding_idx=PAD)

    def forward(self, concepts, segments):
        return self.concept_embeddings(concepts) + self.segment_embeddings(segments)


if __name__ == "__main__":
    torch.manual_seed(0)
    concepts = [[5, 9, 12, 7, 3, 8], [4, 4, 11, 2]]
    visit_ids = [["v1", "v1", "v2", "v2", "v3", "v3"], ["a", "b", "b", "c"]]
    seg = normalize_segments(visit_ids)
    concepts_t, segments_t = pad_batch(concepts, 8), pad_batch(seg, 8)
    emb = EhrEmbeddings(vocab_size=16, max_segments=8, hidden_size=6)
    with torch.no_grad():
        out = emb(concepts_t, segments_t)
    seg_w, con_w = emb.segment_embeddings.weight, emb.concept_embeddings.weight
    ref = torch.zeros_like(out)
    for p, visits in enumerate(visit_ids):
        ranks = {}
        for t, v in enumerate(visits):
            rank = ranks.setdefault(v, len(ranks)) + 1
            ref[p, t] = con_w[concepts[p][t]] + seg_w[rank]
    print("segment ids:", segments_t.tolist())
    first_visit = sum(s.count(0) for s in seg)
    print("first-visit tokens sharing the padding segment:", first_visit)
    print("max |diff| vs reference:", (out - ref).abs().max().item())
