import torch
import torch.nn as nn


class RelGraphConv(nn.Module):
    r"""Relational graph convolution layer with basis decomposition.

    The input layer of an entity-classification R-GCN has no node features: every node is
    represented by its id, so the message of an edge ``(u, v)`` of relation ``r`` is simply
    row ``u`` of the relation weight ``W_r``.

    Parameters
    ----------
    in_feat : int
        Input feature size (the number of nodes when the input is node ids).
    out_feat : int
        Output feature size.
    num_rels : int
        Number of relation types.
    num_bases : int
        Number of bases shared by all relations.
    """

    def __init__(self, in_feat, out_feat, num_rels, num_bases):
        super().__init__()
        self.in_feat = in_feat
        self.out_feat = out_feat
        self.num_rels = num_rels
        self.num_bases = num_bases
        self.weight = nn.Parameter(torch.empty(num_bases, in_feat, out_feat))
        self.w_comp = nn.Parameter(torch.empty(num_rels, num_bases))
        nn.init.xavier_uniform_(self.weight, gain=nn.init.calculate_gain("relu"))
        nn.init.xavier_uniform_(self.w_comp, gain=nn.init.calculate_gain("relu"))

    def relation_weight(self):
        """Compose the per-relation weights from the bases.

        Returns
        -------
        Tensor
            Shape :math:`(R, D_{in}, D_{out})`.
        """
        weight = self.weight.view(self.num_bases, self.in_feat * self.out_feat)
        return torch.matmul(self.w_comp, weight).view(self.num_rels, self.in_feat, self.out_feat)

    def message(self, src_ids, etypes):
        """Messages of featureless source nodes.

        Parameters
        ----------
        src_ids : LongTensor
            Shape :math:`(E,)`, id of the source node of every edge.
        etypes : LongTensor
            Shape :math:`(E,)`, relation type of every edge.

        Returns
        -------
        Tensor
            Shape :math:`(E, D_{out})`: row ``src_ids[e]`` of ``W[etypes[e]]``.
        """
        weight = self.relation_weight()
        # index select weight[etypes, src_ids, :] through a flat view, faster than 2-D indexing
        weight = weight.view(-1, weight.shape[2])
        flatidx = etypes * weight.shape[1] + src_ids
        return weight.index_select(0, flatidx)

    def forward(self, num_nodes, src, dst, etypes, norm):
        """Aggregate the normalized messages on the destination nodes.

        Parameters
        ----------
        num_nodes : int
            Number of nodes in the graph.
        src, dst, etypes : LongTensor
            Shape :math:`(E,)` each.
        norm : Tensor
            Shape :math:`(E,)`, ``1 / in-degree`` of the destination per relation.

        Returns
        -------
        Tensor
            Shape :math:`(N, D_{out})`.
        """
        msg = self.message(src, etypes) * norm.unsqueeze(1)
        out = msg.new_zeros(num_nodes, self.out_feat)
        return out.index_add_(0, dst, msg)


def edge_norm(dst, etypes, num_nodes, num_rels):
    key = etypes * num_nodes + dst
    counts = torch.bincount(key, minlength=num_rels * num_nodes).float()
    return 1.0 / counts[key]


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes, num_rels = 12, 3
    src = torch.randint(0, num_nodes, (40,))
    dst = torch.randint(0, num_nodes, (40,))
    etypes = torch.randint(0, num_rels, (40,))
    norm = edge_norm(dst, etypes, num_nodes, num_rels)

    layer = RelGraphConv(num_nodes, 4, num_rels, num_bases=2)
    with torch.no_grad():
        h = layer(num_nodes, src, dst, etypes, norm)
        w = layer.relation_weight()

    ref = torch.zeros(num_nodes, 4)
    for e in range(len(src)):
        ref[dst[e]] += w[etypes[e], src[e]] * norm[e]
    print("max |h - per-edge reference|:", (h - ref).abs().max().item())
