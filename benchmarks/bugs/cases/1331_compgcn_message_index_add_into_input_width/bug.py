from typing import Tuple

import torch
from torch import nn


class CompGCNLayer(nn.Module):
    """A single layer of CompGCN with an element-wise multiplicative composition."""

    def __init__(self, input_dim: int = 32, output_dim: int = 32):
        """Initialize the layer.

        :param input_dim: the input dimension of entity and relation representations
        :param output_dim: the output dimension
        """
        super().__init__()
        self.w_loop = nn.Parameter(torch.empty(input_dim, output_dim))
        self.w_fwd = nn.Parameter(torch.empty(input_dim, output_dim))
        self.w_bwd = nn.Parameter(torch.empty(input_dim, output_dim))
        self.w_rel = nn.Linear(input_dim, output_dim, bias=False)
        self.self_loop = nn.Parameter(torch.empty(1, input_dim))
        for w in (self.w_loop, self.w_fwd, self.w_bwd, self.w_rel.weight, self.self_loop):
            nn.init.xavier_uniform_(w)

    @staticmethod
    def composition(x_e: torch.Tensor, x_r: torch.Tensor) -> torch.Tensor:
        return x_e * x_r

    def message(
        self,
        x_e: torch.Tensor,
        x_r: torch.Tensor,
        triples: Tuple[torch.LongTensor, torch.LongTensor, torch.LongTensor],
        weight: nn.Parameter,
    ) -> torch.Tensor:
        """Perform message passing along one direction of the edges.

        :param x_e: shape: (num_entities, input_dim)
            The entity representations.
        :param x_r: shape: (2 * num_relations, input_dim)
            The relation representations (including inverse relations).
        :param triples: each of shape: (num_triples,)
            The head, relation and tail indices.
        :param weight: shape: (input_dim, output_dim)
            The transformation weight.

        :return: shape: (num_entities, output_dim)
            The sum of the incoming messages for each entity.
        """
        h, r, t = triples
        # compose and transform: shape (num_triples, output_dim)
        m = self.composition(x_e.index_select(dim=0, index=h), x_r.index_select(dim=0, index=r)) @ weight
        # aggregate by sum
        x_e = torch.zeros_like(x_e).index_add(dim=0, index=t, source=m)
        return x_e

    def forward(
        self, x_e: torch.Tensor, x_r: torch.Tensor, triples: torch.LongTensor
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """Update entity and relation representations.

        :param x_e: shape: (num_entities, input_dim)
        :param x_r: shape: (2 * num_relations, input_dim)
        :param triples: shape: (num_triples, 3)

        :return: shape: (num_entities, output_dim) / (2 * num_relations, output_dim)
        """
        h, r, t = triples.t()
        x_e = (
            self.composition(x_e, self.self_loop) @ self.w_loop
            + self.message(x_e=x_e, x_r=x_r, triples=(h, 2 * r, t), weight=self.w_fwd)
            + self.message(x_e=x_e, x_r=x_r, triples=(t, 2 * r + 1, h), weight=self.w_bwd)
        ) / 3
        return x_e, self.w_rel(x_r)


def build_graph(config):
    g = torch.Generator().manual_seed(config["seed"])
    heads = torch.randint(config["num_entities"], (config["num_triples"],), generator=g)
    rels = torch.randint(config["num_relations"], (config["num_triples"],), generator=g)
    tails = torch.randint(config["num_entities"], (config["num_triples"],), generator=g)
    return torch.stack([heads, rels, tails], dim=1)


if __name__ == "__main__":
    config = {"seed": 0, "num_entities": 9, "num_relations": 3, "num_triples": 20, "input_dim": 12, "output_dim": 6}
    torch.manual_seed(config["seed"])
    triples = build_graph(config)
    layer = CompGCNLayer(input_dim=config["input_dim"], output_dim=config["output_dim"])
    x_e = torch.randn(config["num_entities"], config["input_dim"])
    x_r = torch.randn(2 * config["num_relations"], config["input_dim"])
    new_e, new_r = layer(x_e, x_r, triples)
    print("entity repr:", tuple(new_e.shape), "relation repr:", tuple(new_r.shape))
