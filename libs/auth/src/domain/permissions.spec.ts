import {
  administratorsGroup,
  grants,
  parsePermissionList,
  PERMISSION_AREAS,
  type UserGroup,
} from './permissions';

describe('grants', () => {
  const group: UserGroup = {
    name: 'Agents',
    permissions: [
      { area: 'profiles', access: 'write' },
      { area: 'configuration', access: 'read' },
    ],
  };

  it('write implies read', () => {
    expect(grants(group, 'profiles', 'read')).toBe(true);
    expect(grants(group, 'profiles', 'write')).toBe(true);
  });

  it('read does not imply write', () => {
    expect(grants(group, 'configuration', 'read')).toBe(true);
    expect(grants(group, 'configuration', 'write')).toBe(false);
  });

  it('an unlisted area grants nothing', () => {
    expect(grants(group, 'consents', 'read')).toBe(false);
  });

  it('Administrators may write everything', () => {
    const admins = administratorsGroup();
    expect(admins.name).toBe('Administrators');
    for (const area of PERMISSION_AREAS) {
      expect(grants(admins, area, 'write')).toBe(true);
    }
  });

  it('an Administrators group stored before the events area existed is granted it, until it names it', () => {
    const stored = {
      name: 'Administrators',
      permissions: administratorsGroup().permissions.filter((p) => p.area !== 'events'),
    };
    expect(grants(stored, 'events', 'write')).toBe(true);
    const restricted = {
      ...stored,
      permissions: [...stored.permissions, { area: 'events' as const, access: 'read' as const }],
    };
    expect(grants(restricted, 'events', 'read')).toBe(true);
    expect(grants(restricted, 'events', 'write')).toBe(false);
    // Another group never is.
    expect(grants({ ...stored, name: 'Readers' }, 'events', 'read')).toBe(false);
  });
});

describe('parsePermissionList', () => {
  it('parses the CLI notation, higher access winning', () => {
    expect(parsePermissionList('configuration:read, profiles:write,profiles:read')).toEqual([
      { area: 'profiles', access: 'write' },
      { area: 'configuration', access: 'read' },
    ]);
    expect(parsePermissionList('')).toEqual([]);
  });

  it.each(['profiles', 'profiles:admin', 'billing:read', 'profiles:read:x'])(
    'refuses %s',
    (text) => {
      expect(() => parsePermissionList(text)).toThrow(/Invalid permission/);
    },
  );
});
