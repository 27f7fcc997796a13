import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionRecognitionHead(nn.Module):
    def __init__(self, num_classes=38, in_planes=64, s_dim=32, att_dim=32):
        super().__init__()
        self.num_classes = num_classes
        self.s_dim = s_dim
        self.embed = nn.Embedding(num_classes + 1, att_dim)   # +1 for <start>
        self.cell = nn.GRUCell(in_planes + att_dim, s_dim)
        self.fc = nn.Linear(s_dim, num_classes)

    def decode_step(self, feats, y_prev, state):
        # feats: [N, T, C]  y_prev: [N]  state: [1, N, s_dim]
        context = feats.mean(dim=1)                                   # [N, C]
        h = self.cell(torch.cat([context, self.embed(y_prev)], 1), state.squeeze(0))
        return F.log_softmax(self.fc(h), dim=1), h.unsqueeze(0)      # [N, V], [1, N, s_dim]

    def beam_search(self, feats, beam_width=3, max_len=6):
        batch_size, T, C = feats.size()
        # repeat every image beam_width times: [B*k, T, C]
        feats = feats.unsqueeze(1).expand(-1, beam_width, -1, -1).reshape(-1, T, C)
        state = torch.zeros(1, batch_size * beam_width, self.s_dim)  # [1, B*k, s_dim]
        y_prev = torch.full((batch_size * beam_width,), self.num_classes, dtype=torch.long)
        pos_index = (torch.arange(batch_size) * beam_width).view(-1, 1)   # [B, 1]
        beam_scores = torch.full((batch_size * beam_width, 1), -1e9)
        beam_scores.index_fill_(0, pos_index.view(-1), 0.0)
        history = []
        for _ in range(max_len):
            log_probs, state = self.decode_step(feats, y_prev, state)
            scores = (beam_scores + log_probs).view(batch_size, -1)          # [B, k*V]
            top_scores, candidates = scores.topk(beam_width, dim=1)          # [B, k]
            # which beam each candidate came from, as a row of the flat [B*k] layout
            predecessors = (candidates / self.num_classes + pos_index.expand_as(candidates)).view(-1)
            state = state.index_select(1, predecessors)                      # [1, B*k, s_dim]
            y_prev = (candidates % self.num_classes).view(-1)
            beam_scores = top_scores.view(-1, 1)
            history.append((predecessors, y_prev))
        return beam_scores.view(batch_size, beam_width), history


if __name__ == "__main__":
    torch.manual_seed(0)
    head = AttentionRecognitionHead().eval()
    feats = torch.randn(2, 25, 64)                                  # [B, T, C] from the encoder
    with torch.no_grad():
        scores, history = head.beam_search(feats)
    print("beam scores:", scores)
