import { describe, expect, it } from 'vitest';
import type { CustomDomainRow } from '@sunwatch/protocol';
import { ctrlPwdErrors, domainFormErrors, domainFormValuesOf, domainWireParams, imageFileProblem } from './model';

const row: CustomDomainRow = {
  id: 3,
  host: 'aurora.example',
  vendorId: 9,
  vendorName: 'Aurora',
  vendorCode: 'AU',
  title: 'Aurora Solar',
  languages: ['zh_CN', 'en_US'],
  forceLanguage: 'zh_CN',
  demo: false,
  qrLogin: true,
  logo: null,
  background: null,
  phoneNum: '',
  email: 'help@aurora.example',
  wechat: '',
  englishName: '',
  enabled: true,
  seeded: false,
  createdAt: 0,
  updatedAt: 0,
  updatedBy: 'operator',
};

describe('custom-domain form model', () => {
  it('a new domain needs a host name and a manufacturer', () => {
    expect(domainFormErrors(domainFormValuesOf())).toEqual({ host: 'hostRequired', vendor: 'vendorRequired' });
    expect(domainFormErrors({ ...domainFormValuesOf(row), host: 'bad host/' }).host).toBe('hostInvalid');
    expect(domainFormErrors(domainFormValuesOf(row))).toEqual({});
  });
  it('the forced language must be one of the offered ones (none offered: all are)', () => {
    expect(domainFormErrors({ ...domainFormValuesOf(row), forceLanguage: 'de_DE' }).forceLanguage).toBe(
      'forceNotOffered',
    );
    expect(domainFormErrors({ ...domainFormValuesOf(row), languages: [], forceLanguage: 'de_DE' })).toEqual({});
    expect(domainFormErrors({ ...domainFormValuesOf(row), email: 'not-mail' }).email).toBe('emailInvalid');
  });
  it('wire parameters: host lower-cased, languages comma-separated, switches as 0/1', () => {
    expect(domainWireParams({ ...domainFormValuesOf(row), host: ' Aurora.EXAMPLE ' })).toEqual({
      host: 'aurora.example',
      vendor: 9,
      title: 'Aurora Solar',
      languages: 'zh_CN,en_US',
      forceLanguage: 'zh_CN',
      demo: '0',
      qrLogin: '1',
      phoneNum: '',
      email: 'help@aurora.example',
      wechat: '',
      englishName: '',
      enabled: '1',
    });
    expect(domainWireParams({ ...domainFormValuesOf(row), forceLanguage: undefined }).forceLanguage).toBe('');
  });
  it('a picked picture: png, jpg, svg or webp of at most 1 MB', () => {
    expect(imageFileProblem({ name: 'logo.PNG', size: 10 })).toBe('');
    expect(imageFileProblem({ name: 'logo.svg', size: 10 })).toBe('');
    expect(imageFileProblem({ name: 'logo.gif', size: 10 })).toBe('imageType');
    expect(imageFileProblem({ name: 'logo', size: 10 })).toBe('imageType');
    expect(imageFileProblem({ name: 'bg.webp', size: 1024 * 1024 + 1 })).toBe('imageSize');
  });
  it('the device-control password: the spec rule, then the second entry must match', () => {
    expect(ctrlPwdErrors('abc', 'abc')).toEqual({ pwd: 'pwdRule' });
    expect(ctrlPwdErrors('with space', 'with space')).toEqual({ pwd: 'pwdRule' });
    expect(ctrlPwdErrors('Secret_42', 'Secret_43')).toEqual({ confirm: 'pwdMismatch' });
    expect(ctrlPwdErrors('Secret_42', 'Secret_42')).toEqual({});
  });
});
