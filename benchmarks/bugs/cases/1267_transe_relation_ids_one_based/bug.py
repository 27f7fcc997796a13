import torch
import torch.nn as nn

RELATION2ID = """11
located_in\t1
part_of\t2
has_variety\t3
grows_in\t4
harvested_in\t5
pest_of\t6
treated_by\t7
color_of\t8
shape_of\t9
used_for\t10
related_to\t11
"""

TRAIN2ID = [(0, 4, 1), (3, 7, 2), (5, 12, 11), (9, 2, 6), (14, 8, 10), (1, 6, 3)]


def load_relations(text):
    lines = text.strip().split("\n")
    total = int(lines[0])
    rel2id = {}
    for line in lines[1:]:
        name, rid = line.split("\t")
        rel2id[name] = int(rid)
    return total, rel2id


class TransE(nn.Module):
    def __init__(self, ent_tot, rel_tot, dim=20, margin=4.0):
        super().__init__()
        self.ent_embeddings = nn.Embedding(ent_tot, dim)
        self.rel_embeddings = nn.Embedding(rel_tot, dim)
        self.margin = margin
        nn.init.xavier_uniform_(self.ent_embeddings.weight)
        nn.init.xavier_uniform_(self.rel_embeddings.weight)

    def score(self, batch_h, batch_t, batch_r):
        h = self.ent_embeddings(batch_h)
        t = self.ent_embeddings(batch_t)
        r = self.rel_embeddings(batch_r)
        return torch.norm(h + r - t, p=1, dim=-1)


def batch_from_triples(triples, rel_offset=0):
    h = torch.tensor([x[0] for x in triples])
    t = torch.tensor([x[1] for x in triples])
    r = torch.tensor([x[2] for x in triples]) - rel_offset
    return h, t, r


if __name__ == "__main__":
    torch.manual_seed(0)
    rel_tot, rel2id = load_relations(RELATION2ID)
    model = TransE(ent_tot=16, rel_tot=rel_tot, dim=20)
    h, t, r = batch_from_triples(TRAIN2ID)
    neg_t = torch.randint(0, 16, t.shape)
    pos = model.score(h, t, r)
    neg = model.score(h, neg_t, r)
    loss = torch.relu(model.margin + pos - neg).mean()
    print(loss)
