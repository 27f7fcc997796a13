import torch
import torch.nn as nn
import torch.nn.functional as F


class PointGraph:
    """Directed graph over the points of a batch of clouds, with message passing in the DGL style.

    Args:
        num_nodes (int): B * N nodes, one per point of the batch.
        src (LongTensor of shape (E,)): source point of every edge (a neighbour).
        dst (LongTensor of shape (E,)): destination point of every edge (a centroid); edges are grouped by
            destination, n_neighbor consecutive edges per centroid.
    """

    def __init__(self, num_nodes, src, dst, n_neighbor):
        self.num_nodes, self.src, self.dst, self.n_neighbor = num_nodes, src, dst, n_neighbor
        self.ndata = {}

    def update_all(self, message_func, reduce_func):
        edges = {"src": {k: v[self.src] for k, v in self.ndata.items()}, "dst": {k: v[self.dst] for k, v in self.ndata.items()}}
        msgs = message_func(edges)
        centroids = self.dst.view(-1, self.n_neighbor)[:, 0]  # (M,)
        mailbox = {k: v.view(-1, self.n_neighbor, v.shape[-1]) for k, v in msgs.items()}  # (M, n_neighbor, D)
        for key, value in reduce_func(mailbox).items():
            if key not in self.ndata:
                self.ndata[key] = value.new_zeros(self.num_nodes, *value.shape[1:])
            self.ndata[key].index_copy_(0, centroids, value)


class RelativePositionMessage(nn.Module):
    def forward(self, edges):
        """
        Returns:
            agg_feat (Tensor of shape (E, 3 + C)): neighbour offset and neighbour feature.
            geo_feat (Tensor of shape (E, 6)): neighbour and centroid coordinates.
        """
        pos = edges["src"]["pos"] - edges["dst"]["pos"]
        res = torch.cat([pos, edges["src"]["feat"]], 1)
        geo_feat = torch.cat([edges["src"]["pos"], edges["dst"]["pos"]], 1)
        return {"agg_feat": res, "geo_feat": geo_feat}


class GridGCNConv(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.conv = nn.ModuleList(nn.Conv2d(sizes[i - 1], sizes[i], 1) for i in range(1, len(sizes)))
        self.conv_geo = nn.ModuleList(nn.Conv2d(6 if i == 1 else sizes[i - 1], sizes[i], 1) for i in range(1, len(sizes)))

    def forward(self, mailbox):
        """
        Args:
            mailbox: agg_feat (Tensor of shape (M, K, 3 + C)) and geo_feat (Tensor of shape (M, K, 6)),
                the K messages received by each of the M centroids.

        Returns:
            new_feat (Tensor of shape (M, 2 * C_out)): semantic and geometric features of every centroid.
        """
        h = mailbox["agg_feat"].permute(2, 0, 1).unsqueeze(0)  # (1, 3 + C, M, K)
        for conv in self.conv:
            h = F.relu(conv(h))
        h = h.max(dim=3)[0][0].t()  # (M, C_out)
        h_geo = mailbox["geo_feat"].permute(2, 0, 1).unsqueeze(0)
        for conv in self.conv_geo:
            h_geo = F.relu(conv(h_geo))
        h_geo = h_geo.max(dim=3)[0][0].t()  # (M, C_out)
        h_all = torch.cat([h, h_geo], 0)
        return {"new_feat": h_all}


class SAModule(nn.Module):
    def __init__(self, npoints, n_neighbor, mlp_sizes):
        super().__init__()
        self.npoints, self.n_neighbor = npoints, n_neighbor
        self.message = RelativePositionMessage()
        self.conv = GridGCNConv(mlp_sizes)

    def forward(self, pos, feat):
        """
        Args:
            pos (Tensor of shape (B, N, 3)) and feat (Tensor of shape (B, N, C)): the point clouds.

        Returns:
            pos_res (Tensor of shape (B, npoints, 3)) and feat_res (Tensor of shape (B, npoints, 2 * C_out)).
        """
        B, N, _ = pos.shape
        centroids = torch.arange(0, N, N // self.npoints)[: self.npoints]
        knn = torch.cdist(pos[:, centroids], pos).topk(self.n_neighbor, dim=-1, largest=False).indices  # (B, npoints, K)
        offset = (torch.arange(B) * N)[:, None, None]
        src = (knn + offset).reshape(-1)
        dst = (centroids[None, :, None] + offset).expand_as(knn).reshape(-1)
        g = PointGraph(B * N, src, dst, self.n_neighbor)
        g.ndata["pos"], g.ndata["feat"] = pos.reshape(B * N, 3), feat.reshape(B * N, -1)
        g.update_all(self.message, self.conv)
        centre_ids = (centroids[None, :] + offset[:, :, 0]).reshape(-1)
        return g.ndata["pos"][centre_ids].view(B, self.npoints, 3), g.ndata["new_feat"][centre_ids].view(B, self.npoints, -1)


if __name__ == "__main__":
    torch.manual_seed(0)
    sa = SAModule(npoints=4, n_neighbor=5, mlp_sizes=[3 + 2, 8, 8]).eval()
    pos, feat = torch.rand(2, 16, 3), torch.rand(2, 16, 2)
    with torch.no_grad():
        new_pos, new_feat = sa(pos, feat)
    print("centroid features:", tuple(new_feat.shape))
