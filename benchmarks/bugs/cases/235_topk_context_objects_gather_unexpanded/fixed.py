import torch
import torch.nn as nn
import torch.nn.functional as F


class RelationModule(nn.Module):
    """Scores a referring phrase against the top-K context objects around each candidate."""

    def __init__(self, fc7_dim, lfeat_dim, phrase_dim, jemb_dim, num_cxt):
        super().__init__()
        self.num_cxt = num_cxt
        self.fc7_dim = fc7_dim
        self.vis_fuse = nn.Linear(fc7_dim + lfeat_dim, fc7_dim)
        self.attn = nn.Linear(fc7_dim + phrase_dim, 1)
        self.vis_emb = nn.Linear(fc7_dim, jemb_dim)
        self.lang_emb = nn.Linear(phrase_dim, jemb_dim)

    def forward(self, cxt_fc7, cxt_lfeats, phrase_emb):
        batch_size, num_objects = cxt_fc7.shape[:2]
        value = self.vis_fuse(torch.cat([cxt_fc7, cxt_lfeats], 2))
        expanded_phrase = phrase_emb.unsqueeze(1).expand(-1, num_objects, -1)
        weights = F.softmax(self.attn(torch.cat([value, expanded_phrase], 2)).squeeze(2), dim=1)

        candidate_weight, idx = torch.topk(weights, self.num_cxt, dim=1)
        idx_expand = idx.unsqueeze(-1).expand(batch_size, self.num_cxt, self.fc7_dim)
        candidate_value = torch.gather(value, dim=1, index=idx_expand)
        context = (candidate_weight.unsqueeze(-1) * candidate_value).sum(1)

        vis = F.normalize(self.vis_emb(context), dim=-1)
        lang = F.normalize(self.lang_emb(phrase_emb), dim=-1)
        return (vis * lang).sum(-1), context


if __name__ == "__main__":
    torch.manual_seed(0)
    module = RelationModule(fc7_dim=16, lfeat_dim=5, phrase_dim=12, jemb_dim=8, num_cxt=3)
    cxt_fc7 = torch.randn(2, 6, 16)
    cxt_lfeats = torch.randn(2, 6, 5)
    phrase_emb = torch.randn(2, 12)
    with torch.no_grad():
        scores, context = module(cxt_fc7, cxt_lfeats, phrase_emb)
        value = module.vis_fuse(torch.cat([cxt_fc7, cxt_lfeats], 2))
        w = F.softmax(module.attn(torch.cat([value, phrase_emb.unsqueeze(1).expand(-1, 6, -1)], 2)).squeeze(2), 1)
        for b in range(2):
            order = sorted(range(6), key=lambda o: -w[b, o].item())[:3]
            for d in range(16):
                expected = sum(w[b, o].item() * value[b, o, d].item() for o in order)
                assert abs(context[b, d].item() - expected) < 1e-5
    print("ok")
