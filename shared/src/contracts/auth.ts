import { defineContract } from '../contract.ts';
import {
  AgentAuthResponse,
  AgentLoginRequest,
  AgentProfile,
  AuthResponse,
  ChangePasswordRequest,
  LoginRequest,
  LogoutRequest,
  PhoneChangeCodeRequest,
  PhoneChangeRequest,
  PhoneChangeStarted,
  PhoneProofCodeRequest,
  RecoveryRequest,
  RecoveryStarted,
  ResetPasswordRequest,
  RegisterRequest,
  UpdateProfileRequest,
  UserProfile,
} from '../schemas/auth.ts';
import { Message } from '../schemas/common.ts';

const tag = 'Authentication';

export const register = defineContract({
  method: 'post',
  path: '/auth/register',
  summary: 'Create a user account and sign it in on this device',
  tag,
  access: 'public',
  body: RegisterRequest,
  response: AuthResponse,
  status: 201,
});

export const login = defineContract({
  method: 'post',
  path: '/auth/login',
  summary: 'Sign a user in by email or phone; signs every other device out',
  tag,
  access: 'public',
  body: LoginRequest,
  response: AuthResponse,
});

export const agentLogin = defineContract({
  method: 'post',
  path: '/auth/agent/login',
  summary: 'Sign an agent in; signs every other device out',
  tag,
  access: 'public',
  body: AgentLoginRequest,
  response: AgentAuthResponse,
});

export const logout = defineContract({
  method: 'post',
  path: '/auth/logout',
  summary: 'End the current session',
  tag,
  access: 'account',
  body: LogoutRequest,
  response: Message,
});

export const profile = defineContract({
  method: 'get',
  path: '/auth/profile',
  summary: "The signed-in user's profile",
  tag,
  access: 'user',
  response: UserProfile,
});

export const agentProfile = defineContract({
  method: 'get',
  path: '/auth/agent/profile',
  summary: "The signed-in agent's profile",
  tag,
  access: 'agent',
  response: AgentProfile,
});

export const updateProfile = defineContract({
  method: 'put',
  path: '/users/profile',
  summary: 'Change full name and/or email (a new email needs currentPassword)',
  tag: 'User',
  access: 'user',
  body: UpdateProfileRequest,
  response: UserProfile,
});

export const changePassword = defineContract({
  method: 'post',
  path: '/users/change-password',
  summary: 'Change the password; signs every other device out',
  tag: 'User',
  access: 'user',
  body: ChangePasswordRequest,
  response: Message,
});

export const agentChangePassword = defineContract({
  method: 'post',
  path: '/auth/agent/change-password',
  summary: "Change the signed-in agent's password (the generated one, say); signs every other device out",
  tag,
  access: 'agent',
  body: ChangePasswordRequest,
  response: Message,
});

export const requestRecoveryCode = defineContract({
  method: 'post',
  path: '/auth/recovery/request',
  summary: 'Send a recovery code to the account of this phone (by SMS) or email; the same answer for any input',
  tag,
  access: 'public',
  body: RecoveryRequest,
  response: RecoveryStarted,
});

export const resetPassword = defineContract({
  method: 'post',
  path: '/auth/recovery/reset',
  summary: 'Set a new password with a recovery code; ends every session and signs in on this device',
  tag,
  access: 'public',
  body: ResetPasswordRequest,
  response: AuthResponse,
});

export const requestPhoneChangeCode = defineContract({
  method: 'post',
  path: '/users/profile/phone/code',
  summary: 'Check the password and send a 6-digit code to the new phone number by SMS',
  tag: 'User',
  access: 'user',
  body: PhoneChangeCodeRequest,
  response: PhoneChangeStarted,
});

export const changePhone = defineContract({
  method: 'post',
  path: '/users/profile/phone',
  summary: "Change the account's phone number with the code sent to it; the old number is told by SMS",
  tag: 'User',
  access: 'user',
  body: PhoneChangeRequest,
  response: UserProfile,
});

export const requestPhoneProofCode = defineContract({
  method: 'post',
  path: '/users/profile/phone/confirm-code',
  summary: "Send a 6-digit code to the account's own unconfirmed phone number; confirm it with /users/profile/phone",
  tag: 'User',
  access: 'user',
  body: PhoneProofCodeRequest,
  response: PhoneChangeStarted,
});
