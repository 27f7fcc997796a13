import torch
from jaxtyping import Float, Int
from torch import Tensor


class SensorGraph:
    """Homogeneous graph whose nodes carry a type id; node attributes may store nodes on any axis."""

    NODE_CAT_DIM = {"x": 0, "pos": 0, "readings": -1}

    def __init__(
        self,
        x: Float[Tensor, "nodes feats"],
        pos: Float[Tensor, "nodes 2"],
        readings: Float[Tensor, "steps nodes"],
        node_type: Int[Tensor, " nodes"],
    ):
        self.node_attrs = {"x": x, "pos": pos, "readings": readings}
        self.node_type = node_type

    def cat_dim(self, key: str) -> int:
        return self.NODE_CAT_DIM.get(key, 0)

    def to_heterogeneous(self, type_names: list[str]) -> dict[str, dict[str, Tensor]]:
        stores: dict[str, dict[str, Tensor]] = {}
        for type_id, name in enumerate(type_names):
            node_ids: Int[Tensor, " k"] = (self.node_type == type_id).nonzero().view(-1)
            store = {}
            for key, value in self.node_attrs.items():
                store[key] = value.index_select(self.cat_dim(key), node_ids)
            store["num_nodes"] = node_ids.numel()
            stores[name] = store
        return stores


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes, steps = 10, 24
    graph = SensorGraph(
        x=torch.randn(num_nodes, 5),
        pos=torch.rand(num_nodes, 2),
        readings=torch.randn(steps, num_nodes),
        node_type=torch.tensor([0, 1, 1, 0, 2, 1, 0, 2, 2, 1]),
    )
    hetero = graph.to_heterogeneous(["station", "buoy", "drone"])
    buoy = hetero["buoy"]
    ref = torch.tensor([[graph.node_attrs["readings"][t, n].item() for n in range(num_nodes)
                         if graph.node_type[n] == 1] for t in range(steps)])
    assert torch.equal(buoy["readings"], ref)
    for name, type_id in (("station", 0), ("buoy", 1), ("drone", 2)):
        ids = [n for n in range(num_nodes) if graph.node_type[n] == type_id]
        for key in ("x", "pos"):
            expected = torch.stack([graph.node_attrs[key][n] for n in ids])
            assert torch.equal(hetero[name][key], expected)
        assert hetero[name]["readings"].shape == (steps, len(ids))
    print("ok")
