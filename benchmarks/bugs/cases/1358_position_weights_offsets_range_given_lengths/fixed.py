from typing import Dict

import torch
import torch.nn as nn


class JaggedTensor:
    def __init__(self, values, lengths, weights=None):
        self._values = values
        self._lengths = lengths
        self._weights = weights

    def values(self):
        return self._values

    def lengths(self):
        return self._lengths

    def weights(self):
        return self._weights

    def offsets(self):
        return torch.cat([self._lengths.new_zeros(1), torch.cumsum(self._lengths, 0)])


def offsets_range(offsets, range_size):
    positions = torch.arange(range_size, device=offsets.device)
    bag = torch.searchsorted(offsets, positions, right=True) - 1
    return positions - offsets[bag]


class PositionWeightedModule(nn.Module):
    def __init__(self, max_feature_lengths: Dict[str, int]):
        super().__init__()
        self.position_weights = nn.ParameterDict(
            {key: nn.Parameter(torch.ones(length)) for key, length in max_feature_lengths.items()}
        )

    def forward(self, features: Dict[str, JaggedTensor]) -> Dict[str, JaggedTensor]:
        weighted = {}
        for key, position_weight in self.position_weights.items():
            feature = features[key]
            seq = offsets_range(feature.offsets(), feature.values().numel())
            weighted[key] = JaggedTensor(
                values=feature.values(),
                lengths=feature.lengths(),
                weights=torch.gather(position_weight, dim=0, index=seq),
            )
        return weighted


class PooledEmbeddings(nn.Module):
    def __init__(self, tables):
        super().__init__()
        self.bags = nn.ModuleDict(
            {name: nn.EmbeddingBag(cfg["num_embeddings"], cfg["embedding_dim"], mode="sum") for name, cfg in tables.items()}
        )

    def forward(self, features):
        out = []
        for name, bag in self.bags.items():
            f = features[name]
            out.append(bag(f.values(), f.offsets()[:-1], per_sample_weights=f.weights()))
        return torch.cat(out, dim=1)


def make_batch(raw):
    batch = {}
    for key, rows in raw.items():
        values = torch.tensor([v for row in rows for v in row], dtype=torch.long)
        lengths = torch.tensor([len(row) for row in rows], dtype=torch.long)
        batch[key] = JaggedTensor(values, lengths)
    return batch


CONFIG = {
    "tables": {
        "clicked_items": {"num_embeddings": 50, "embedding_dim": 4},
        "searched_terms": {"num_embeddings": 30, "embedding_dim": 4},
    },
    "max_feature_lengths": {"clicked_items": 5, "searched_terms": 3},
}


if __name__ == "__main__":
    torch.manual_seed(0)
    fp = PositionWeightedModule(CONFIG["max_feature_lengths"])
    with torch.no_grad():
        for w in fp.position_weights.values():
            w.copy_(0.5 ** torch.arange(len(w), dtype=torch.float))   # decay with position
    ebc = PooledEmbeddings(CONFIG["tables"])
    raw = {
        "clicked_items": [[3, 7], [], [11, 4, 9], [1]],
        "searched_terms": [[2], [5, 6, 7], [0], [8, 9]],
    }
    batch = make_batch(raw)
    pooled = ebc(fp(batch))

    with torch.no_grad():
        for col, (name, bag) in enumerate(ebc.bags.items()):
            pos_w = fp.position_weights[name]
            for b, row in enumerate(raw[name]):
                ref = torch.zeros(4)
                for pos, item in enumerate(row):
                    ref += pos_w[pos] * bag.weight[item]
                assert torch.allclose(pooled[b, 4 * col:4 * col + 4], ref, atol=1e-6), (name, b)
    print("ok")
