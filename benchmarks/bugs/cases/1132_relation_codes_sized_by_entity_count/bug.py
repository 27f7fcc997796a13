import torch
import torch.nn as nn


class DiagonalDecoder(nn.Module):
    """Bilinear-diagonal scorer over a shared code lookup (entities and relation diagonals)."""

    def __init__(self, settings):
        super().__init__()
        n_entities = int(settings["EntityCount"])
        n_relations = int(settings["RelationCount"])
        dim = int(settings["CodeDimension"])
        self.n_relations = n_relations
        self.entity_codes = nn.Parameter(torch.randn(n_entities, dim) * 0.1)
        self.relation_codes = nn.Parameter(torch.randn(n_entities, dim) * 0.1)

    def forward(self, subj, rel, obj):
        e_s = torch.index_select(self.entity_codes, 0, subj)
        r = torch.index_select(self.relation_codes, 0, rel)
        e_o = torch.index_select(self.entity_codes, 0, obj)
        return torch.sigmoid((e_s * r * e_o).sum(dim=1))


def sample_batch(n, n_entities, n_relations, gen):
    subj = torch.randint(0, n_entities, (n,), generator=gen)
    rel = torch.randint(0, n_relations, (n,), generator=gen)
    obj = torch.randint(0, n_entities, (n,), generator=gen)
    return subj, rel, obj


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    settings = {"EntityCount": "14", "RelationCount": "55", "CodeDimension": "8"}
    decoder = DiagonalDecoder(settings)
    subj, rel, obj = sample_batch(64, 14, 55, gen)
    probs = decoder(subj, rel, obj)
    print("mean prob:", probs.mean().item())


if __name__ == "__main__":
    main()
