import torch
import torch.nn as nn


class VitBackbone(nn.Module):
    def __init__(self, img_h, img_w, patch_dim, hidden_size, num_layers, add_class_token=True, class_token_len=1):
        super().__init__()
        self.patch_dim = patch_dim
        self.add_class_token = add_class_token
        self.class_token_len = class_token_len
        num_patches = (img_h // patch_dim) * (img_w // patch_dim)
        self.seq_length = num_patches + (class_token_len if add_class_token else 0)
        self.conv1 = nn.Conv2d(3, hidden_size, kernel_size=patch_dim, stride=patch_dim, bias=False)
        self.position_embeddings = nn.Embedding(self.seq_length, hidden_size)
        if add_class_token:
            self.class_token = nn.Parameter(torch.randn(1, class_token_len, hidden_size))
        self.ln_pre = nn.LayerNorm(hidden_size)
        self.transformer = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(hidden_size, 4, 2 * hidden_size, dropout=0.0, batch_first=True), num_layers
        )

    def forward(self, pixel_values):
        x = self.conv1(pixel_values)
        x = x.reshape(x.shape[0], x.shape[1], -1).permute(0, 2, 1)
        if self.add_class_token:
            class_token = self.class_token.expand(x.shape[0], -1, -1)
            x = torch.cat([class_token, x], dim=1)
        pos = torch.arange(x.shape[1], device=x.device)
        x = x + self.position_embeddings(pos)
        x = self.ln_pre(x)
        return self.transformer(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    vit = VitBackbone(img_h=32, img_w=32, patch_dim=8, hidden_size=32, num_layers=2).eval()
    images = torch.randn(2, 3, 32, 32)
    seen = []
    vit.ln_pre.register_forward_hook(lambda m, inp, out: seen.append(inp[0].clone()))
    with torch.no_grad():
        out = vit(images)
        patches = vit.conv1(images).flatten(2).transpose(1, 2)
        pe = vit.position_embeddings.weight
        for b in range(2):
            rows = [vit.class_token[0, 0] + pe[0]]
            for p in range(patches.shape[1]):
                rows.append(patches[b, p] + pe[1 + p])
            assert torch.allclose(seen[0][b], torch.stack(rows), atol=1e-6)
        expected = vit.transformer(vit.ln_pre(seen[0]))
        assert torch.allclose(out, expected, atol=1e-5)
    print("ok")
