import torch

ROBOT_DOFS = [f"j{i:02d}" for i in range(29)]          # 29-DoF humanoid
CLIP_DOFS = [f"j{i:02d}" for i in range(0, 29, 3)] + [f"j{i:02d}" for i in (1, 4, 7, 10, 13, 16, 19, 22, 25)]


class MotionClip:
    def __init__(self, num_frames, joint_names, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.joint_names = joint_names
        # dof_pos: [T, J_clip] joint angles retargeted for another embodiment
        self.dof_pos = torch.randn(num_frames, len(joint_names), generator=g) * 0.3


class TrackingEnv:
    def __init__(self, num_envs, dof_names, clip):
        self.dof_names = dof_names
        self.clip = clip
        self.default_dof_pos = torch.zeros(len(dof_names))
        # dof_pos: [E, J_robot]
        self.dof_pos = self.default_dof_pos.repeat(num_envs, 1)
        self.frame = torch.zeros(num_envs, dtype=torch.long)
        # clip_to_robot: [J_clip] robot column of every clip joint
        self.clip_to_robot = torch.tensor([dof_names.index(n) for n in clip.joint_names])

    def reset_idx(self, env_ids, start_frames):
        # env_ids: [n]; start_frames: [n]
        self.frame[env_ids] = start_frames
        ref = self.clip.dof_pos[start_frames]             # [n, J_clip]
        self.dof_pos[env_ids] = self.default_dof_pos
        self.dof_pos[env_ids[:, None], self.clip_to_robot[None, :]] = ref
        return self.dof_pos[env_ids]


if __name__ == "__main__":
    clip = MotionClip(num_frames=40, joint_names=CLIP_DOFS)
    env = TrackingEnv(num_envs=4, dof_names=ROBOT_DOFS, clip=clip)
    env.dof_pos += 1.0  # stale state from the previous episode
    env_ids, frames = torch.tensor([1, 3]), torch.tensor([5, 17])
    out = env.reset_idx(env_ids, frames)
    for r, (e, f) in enumerate(zip(env_ids.tolist(), frames.tolist())):
        for j, name in enumerate(ROBOT_DOFS):
            want = float(clip.dof_pos[f, CLIP_DOFS.index(name)]) if name in CLIP_DOFS else 0.0
            assert abs(float(out[r, j]) - want) < 1e-6
    assert torch.all(env.dof_pos[0] == 1.0) and torch.all(env.dof_pos[2] == 1.0)
    print("ok")
