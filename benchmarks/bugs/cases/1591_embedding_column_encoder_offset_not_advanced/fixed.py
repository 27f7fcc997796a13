import torch
import torch.nn as nn
from torch import Tensor


class EmbeddingColumns:
    """Several pre-computed embedding columns (e.g. text / image embeddings) packed side by side."""

    def __init__(self, columns: list[Tensor]):
        self.values = torch.cat(columns, dim=1)  # [num_rows, sum(emb_dims)]
        self.emb_dims = [c.shape[1] for c in columns]


class LinearEmbeddingEncoder(nn.Module):
    """Applies a separate linear map to every embedding column and stacks the results."""

    def __init__(self, emb_dims: list[int], out_channels: int):
        super().__init__()
        self.emb_dim_list = emb_dims
        self.weight_list = nn.ParameterList([nn.Parameter(torch.randn(d, out_channels) * 0.1) for d in emb_dims])
        self.biases = nn.Parameter(torch.zeros(len(emb_dims), out_channels))

    def forward(self, feat: EmbeddingColumns) -> Tensor:
        x_lins = []
        start_idx = 0
        for idx, col_dim in enumerate(self.emb_dim_list):
            end_idx = start_idx + col_dim
            col_index = torch.arange(start_idx, end_idx, device=feat.values.device)
            # [num_rows, emb_dim] @ [emb_dim, out_channels] -> [num_rows, out_channels]
            x_lin = feat.values.index_select(1, col_index) @ self.weight_list[idx]
            x_lins.append(x_lin)
            start_idx = end_idx
        # [num_rows, num_cols, out_channels] + [num_cols, out_channels]
        return torch.stack(x_lins, dim=1) + self.biases


if __name__ == "__main__":
    torch.manual_seed(0)
    title_emb = torch.randn(5, 8)    # [num_rows, 8]
    image_emb = torch.randn(5, 12)   # [num_rows, 12]
    review_emb = torch.randn(5, 8)   # [num_rows, 8]
    feat = EmbeddingColumns([title_emb, image_emb, review_emb])
    encoder = LinearEmbeddingEncoder(feat.emb_dims, out_channels=4)
    with torch.no_grad():
        out = encoder(feat)  # [num_rows, 3, 4]
        ref = torch.stack([col @ w for col, w in zip([title_emb, image_emb, review_emb], encoder.weight_list)], dim=1)
    assert out.shape == (5, 3, 4)
    assert torch.allclose(out, ref, atol=1e-6)
    print("ok")
