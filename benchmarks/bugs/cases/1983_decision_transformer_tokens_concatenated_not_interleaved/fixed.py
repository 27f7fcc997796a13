import torch
import torch.nn as nn


class TransformerBlock(nn.Module):
    def __init__(self, seq_len: int, embedding_dim: int, num_heads: int,
                 attention_dropout: float, residual_dropout: float):
        super().__init__()
        self.norm1 = nn.LayerNorm(embedding_dim)
        self.norm2 = nn.LayerNorm(embedding_dim)
        self.drop = nn.Dropout(residual_dropout)
        self.attention = nn.MultiheadAttention(embedding_dim, num_heads, attention_dropout, batch_first=True)
        self.mlp = nn.Sequential(
            nn.Linear(embedding_dim, 4 * embedding_dim),
            nn.GELU(),
            nn.Linear(4 * embedding_dim, embedding_dim),
            nn.Dropout(residual_dropout),
        )
        # True value indicates that the corresponding position is not allowed to attend
        self.register_buffer("causal_mask", ~torch.tril(torch.ones(seq_len, seq_len)).to(bool))
        self.seq_len = seq_len

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # [batch_size, seq_len, emb_dim] -> [batch_size, seq_len, emb_dim]
        causal_mask = self.causal_mask[: x.shape[1], : x.shape[1]]
        norm_x = self.norm1(x)
        attention_out = self.attention(query=norm_x, key=norm_x, value=norm_x,
                                       attn_mask=causal_mask, need_weights=False)[0]
        x = x + self.drop(attention_out)
        x = x + self.mlp(self.norm2(x))
        return x


class DecisionTransformer(nn.Module):
    def __init__(self, state_dim: int, action_dim: int, seq_len: int = 10, episode_len: int = 1000,
                 embedding_dim: int = 128, num_layers: int = 4, num_heads: int = 8,
                 attention_dropout: float = 0.0, residual_dropout: float = 0.0,
                 embedding_dropout: float = 0.0, max_action: float = 1.0):
        super().__init__()
        self.emb_drop = nn.Dropout(embedding_dropout)
        self.emb_norm = nn.LayerNorm(embedding_dim)
        self.out_norm = nn.LayerNorm(embedding_dim)

        self.timestep_emb = nn.Embedding(episode_len, embedding_dim)
        self.state_emb = nn.Linear(state_dim, embedding_dim)
        self.action_emb = nn.Linear(action_dim, embedding_dim)
        self.return_emb = nn.Linear(1, embedding_dim)

        self.blocks = nn.Sequential(*[
            TransformerBlock(seq_len=3 * seq_len, embedding_dim=embedding_dim, num_heads=num_heads,
                             attention_dropout=attention_dropout, residual_dropout=residual_dropout)
            for _ in range(num_layers)
        ])
        self.action_head = nn.Sequential(nn.Linear(embedding_dim, action_dim), nn.Tanh())
        self.seq_len = seq_len
        self.max_action = max_action

    def forward(
        self,
        states: torch.FloatTensor,  # [batch_size, seq_len, state_dim]
        actions: torch.FloatTensor,  # [batch_size, seq_len, action_dim]
        returns_to_go: torch.FloatTensor,  # [batch_size, seq_len, 1]
        time_steps: torch.LongTensor,  # [batch_size, seq_len]
    ) -> torch.FloatTensor:
        # [batch_size, seq_len, emb_dim]
        time_emb = self.timestep_emb(time_steps)
        # [batch_size, seq_len, emb_dim]
        state_emb = self.state_emb(states) + time_emb
        act_emb = self.action_emb(actions) + time_emb
        returns_emb = self.return_emb(returns_to_go) + time_emb
        # [batch_size, seq_len * 3, emb_dim], (r_0, s_0, a_0, r_1, s_1, a_1, ...)
        # during evaluation last action will be dummy padding (just zeros)
        batch_size, seq_len, embedding_dim = state_emb.shape
        sequence = (
            torch.stack([returns_emb, state_emb, act_emb], dim=1)
            .permute(0, 2, 1, 3)
            .reshape(batch_size, 3 * seq_len, embedding_dim)
        )
        # LayerNorm and Dropout as in original implementation
        sequence = self.emb_norm(sequence)
        sequence = self.emb_drop(sequence)

        out = self.out_norm(self.blocks(sequence))
        # [batch_size, seq_len, action_dim]
        # predict actions from state embeddings
        out = self.action_head(out[:, 1::3]) * self.max_action
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, seq_len, state_dim, action_dim = 2, 10, 17, 6
    model = DecisionTransformer(state_dim, action_dim, seq_len=seq_len, embedding_dim=32,
                                num_layers=2, num_heads=4)
    model.eval()

    states = torch.randn(batch_size, seq_len, state_dim)
    actions = torch.randn(batch_size, seq_len, action_dim).clamp(-1, 1)
    returns = torch.randn(batch_size, seq_len, 1)
    time_steps = torch.arange(seq_len).repeat(batch_size, 1)

    with torch.no_grad():
        predicted = model(states, actions, returns, time_steps)
        # a_0 must be predicted from (r_0, s_0): change s_0 and see whether the prediction moves
        other_states = states.clone()
        other_states[:, 0] = torch.randn(batch_size, state_dim)
        predicted_other = model(other_states, actions, returns, time_steps)
    moved = (predicted[:, 0] - predicted_other[:, 0]).abs().max().item()
    assert moved > 1e-4

    # reference: build the token sequence step by step (r_t, s_t, a_t) and run the same layers
    with torch.no_grad():
        time_emb = model.timestep_emb(time_steps)
        tokens = []
        for t in range(seq_len):
            tokens.append(model.return_emb(returns[:, t]) + time_emb[:, t])
            tokens.append(model.state_emb(states[:, t]) + time_emb[:, t])
            tokens.append(model.action_emb(actions[:, t]) + time_emb[:, t])
        sequence = model.emb_norm(torch.stack(tokens, dim=1))
        out = model.out_norm(model.blocks(sequence))
        for t in range(seq_len):
            expected = model.action_head(out[:, 3 * t + 1]) * model.max_action
            assert torch.allclose(predicted[:, t], expected, atol=1e-5), t
    print("ok")
