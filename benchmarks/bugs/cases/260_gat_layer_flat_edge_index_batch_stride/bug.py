import torch
import torch.nn as nn
import torch.nn.functional as F


class GATLayer(nn.Module):
    def __init__(self, c_in, c_out, num_heads=1, concat_heads=True, alpha=0.2):
        super().__init__()
        self.num_heads = num_heads
        self.concat_heads = concat_heads
        if self.concat_heads:
            c_out = c_out // num_heads
        self.projection = nn.Linear(c_in, c_out * num_heads)
        self.a = nn.Parameter(torch.Tensor(num_heads, 2 * c_out))  # one attention vector per head
        self.leakyrelu = nn.LeakyReLU(alpha)
        nn.init.xavier_uniform_(self.projection.weight.data, gain=1.414)
        nn.init.xavier_uniform_(self.a.data, gain=1.414)

    def forward(self, node_feats, adj_matrix):
        # node_feats: [batch_size, num_nodes, c_in]; adj_matrix: [batch_size, num_nodes, num_nodes]
        batch_size, num_nodes = node_feats.size(0), node_feats.size(1)
        node_feats = self.projection(node_feats)
        node_feats = node_feats.view(batch_size, num_nodes, self.num_heads, -1)

        edges = adj_matrix.nonzero(as_tuple=False)  # [num_edges, 3]: (batch, row, col)
        node_feats_flat = node_feats.view(batch_size * num_nodes, self.num_heads, -1)
        edge_indices_row = edges[:, 0] * batch_size + edges[:, 1]
        edge_indices_col = edges[:, 0] * batch_size + edges[:, 2]
        a_input = torch.cat([
            torch.index_select(input=node_feats_flat, index=edge_indices_row, dim=0),
            torch.index_select(input=node_feats_flat, index=edge_indices_col, dim=0),
        ], dim=-1)  # [num_edges, num_heads, 2 * c_out]

        attn_logits = torch.einsum("bhc,hc->bh", a_input, self.a)  # [num_edges, num_heads]
        attn_logits = self.leakyrelu(attn_logits)
        attn_matrix = attn_logits.new_zeros(adj_matrix.shape + (self.num_heads,)).fill_(-9e15)
        attn_matrix[adj_matrix[..., None].repeat(1, 1, 1, self.num_heads) == 1] = attn_logits.reshape(-1)
        attn_probs = F.softmax(attn_matrix, dim=2)  # [batch_size, num_nodes, num_nodes, num_heads]
        node_feats = torch.einsum("bijh,bjhc->bihc", attn_probs, node_feats)
        if self.concat_heads:
            return node_feats.reshape(batch_size, num_nodes, -1)
        return node_feats.mean(dim=2)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = GATLayer(c_in=3, c_out=4, num_heads=2)
    node_feats = torch.randn(4, 3, 3)
    adj_matrix = torch.eye(3).repeat(4, 1, 1)
    adj_matrix[:, 0, 1] = adj_matrix[:, 1, 0] = 1
    adj_matrix[:, 1, 2] = adj_matrix[:, 2, 1] = 1
    with torch.no_grad():
        out = layer(node_feats, adj_matrix)
    print("output:", tuple(out.shape))
