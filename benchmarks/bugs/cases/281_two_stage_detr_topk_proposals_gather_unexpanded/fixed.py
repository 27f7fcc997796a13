import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, num_layers):
        super().__init__()
        dims = [input_dim] + [hidden_dim] * (num_layers - 1)
        self.layers = nn.ModuleList(nn.Linear(n, k) for n, k in zip(dims, dims[1:] + [output_dim]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = F.relu(layer(x)) if i < len(self.layers) - 1 else layer(x)
        return x


class TwoStageQuerySelection(nn.Module):
    def __init__(self, d_model, num_classes, two_stage_num_proposals):
        super().__init__()
        self.two_stage_num_proposals = two_stage_num_proposals
        self.enc_output = nn.Linear(d_model, d_model)
        self.enc_output_norm = nn.LayerNorm(d_model)
        self.class_embed = nn.Linear(d_model, num_classes)
        self.bbox_embed = MLP(d_model, d_model, 4, 3)

    def gen_encoder_output_proposals(self, memory, spatial_shape):
        h, w = spatial_shape
        grid_y, grid_x = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
        grid = (torch.stack([grid_x, grid_y], -1).view(-1, 2) + 0.5) / torch.tensor([w, h])
        wh = torch.full_like(grid, 0.05)
        proposals = torch.cat([grid, wh], -1).expand(memory.shape[0], -1, -1)
        output_proposals = torch.log(proposals / (1 - proposals))
        return self.enc_output_norm(self.enc_output(memory)), output_proposals

    def forward(self, memory, spatial_shape, image_size):
        output_memory, output_proposals = self.gen_encoder_output_proposals(memory, spatial_shape)
        enc_outputs_class = self.class_embed(output_memory)
        enc_outputs_coord_unact = self.bbox_embed(output_memory) + output_proposals
        topk = self.two_stage_num_proposals
        topk_proposals = torch.topk(enc_outputs_class.max(-1)[0], topk, dim=1)[1]
        topk_coords_unact = torch.gather(enc_outputs_coord_unact, 1, topk_proposals.unsqueeze(-1).repeat(1, 1, 4))
        reference_points = topk_coords_unact.detach().sigmoid()
        img_w, img_h = image_size
        init_boxes = reference_points * torch.tensor([img_w, img_h, img_w, img_h], dtype=torch.float32)
        return init_boxes, topk_proposals


if __name__ == "__main__":
    torch.manual_seed(0)
    selector = TwoStageQuerySelection(d_model=16, num_classes=3, two_stage_num_proposals=5).eval()
    memory = torch.randn(2, 6 * 8, 16)
    with torch.no_grad():
        init_boxes, topk_proposals = selector(memory, (6, 8), image_size=(640, 480))
        output_memory, output_proposals = selector.gen_encoder_output_proposals(memory, (6, 8))
        coords = selector.bbox_embed(output_memory) + output_proposals
    expected = [[[coords[b, i, c].sigmoid().item() * s for c, s in enumerate((640, 480, 640, 480))]
                 for i in topk_proposals[b].tolist()] for b in range(2)]
    print("initial boxes of image 0 (cx, cy, w, h):", [[round(v, 1) for v in box] for box in init_boxes[0].tolist()[:2]])
    print("expected                              :", [[round(v, 1) for v in box] for box in expected[0][:2]])
    assert torch.allclose(init_boxes, torch.tensor(expected), atol=1e-3)
    print("ok")
